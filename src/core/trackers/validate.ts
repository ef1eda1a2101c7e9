/**
 * The checks a value passes before a writer that takes it from outside (the MCP server's write
 * tools; docs/mcp.md, "What a write tool refuses") puts it on a tracker line, a progress note or a
 * topic callout, each built on the rule that already reads or writes such a value: dates
 * ({@link isIsoDate}), agent names ({@link AGENT_NAME_RULE}), vault paths
 * ({@link normalizeVaultPath}), block ids ({@link trailingBlockId}), priorities ({@link priorityWord}).
 * Each returns a {@link Result}: the value as it is to be written, or a one-line reason naming the
 * argument (`what`). Texts come back with their secrets redacted ({@link redactSecrets}): an
 * agent's journal line or item is held to the rule its transcripts are (docs/mcp.md, "Secrets").
 */
import { isSecretName, redactSecrets } from "../redact";
import { AGENT_NAME_RULE, normalizeVaultPath, sanitizeFileName } from "../layout";
import { trailingBlockId } from "../markdown/anchors";
import { linkTarget, unwrapWikilink } from "../markdown/wikilinks";
import { isIsoDate } from "../util/dates";
import { err, ok, type Result } from "../util/result";
import { FIELD_KEYS, PRIORITY_WORDS, priorityWord } from "./fields";

/** True when `text` holds a control character (C0 but tab and line breaks, DEL): never part of a note's text. */
function hasControl(text: string): boolean {
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f) return true;
  }
  return false;
}

/** Field keys whose value is a day `YYYY-MM-DD`: Tasks' dates and ours (README "Tracker line format"). */
export const DATE_FIELD_KEYS: readonly string[] = [
  FIELD_KEYS.created,
  "start",
  "scheduled",
  FIELD_KEYS.due,
  FIELD_KEYS.cancelled,
  FIELD_KEYS.completion,
  FIELD_KEYS.target,
  FIELD_KEYS.decided,
  FIELD_KEYS.next,
  FIELD_KEYS.last,
  FIELD_KEYS.validTo,
];

/** Longest text (characters) of an item, a progress note, an answer or a callout: a line, not a file. */
export const MAX_TEXT_CHARS = 10_000;

/** Longest block (characters) appended to a journal at once: a pasted log belongs in a file. */
export const MAX_BLOCK_CHARS = 100_000;

/**
 * Why `text` cannot go into a note as an item's text as it stands, or `null`: over
 * {@link MAX_TEXT_CHARS} characters, or holding a control character (a NUL of a damaged journal
 * would make git take the tracker for a binary file). The rule of {@link checkText}, also applied
 * to extracted items (src/core/extraction/pipeline.ts).
 */
export function textProblem(what: string, text: string): string | null {
  if (text.length > MAX_TEXT_CHARS)
    return `${what} is ${text.length} characters; at most ${MAX_TEXT_CHARS} are taken`;
  if (hasControl(text)) return `${what} holds a control character`;
  return null;
}

/**
 * A text to write as an item's text, a progress note, an answer or a callout: not blank, at most
 * {@link MAX_TEXT_CHARS} characters, no control character, and not ending in a block-id-looking
 * token (` ^t-003`), which Obsidian would read as the line's block id and so take the id from the
 * item it belongs to.
 * @returns the text trimmed, its secrets redacted ({@link redactSecrets}), or the reason
 */
export function checkText(what: string, text: string): Result<string> {
  const t = text.trim();
  if (t === "") return err(`${what} is blank`);
  const problem = textProblem(what, t);
  if (problem !== null) return err(problem);
  const id = trailingBlockId(t);
  if (id !== null)
    return err(
      `${what} ends with "^${id}", which Obsidian reads as a block id; drop it or add words after it`,
    );
  return ok(redactSecrets(t));
}

/**
 * Markdown to append to a journal as blocks: not blank, at most {@link MAX_BLOCK_CHARS}
 * characters, no control character (line breaks and tabs are text).
 * @returns the text as given (its own trimming is the journal's) with its secrets redacted
 *   ({@link redactSecrets}), or the reason
 */
export function checkBlockText(what: string, text: string): Result<string> {
  if (text.trim() === "") return err(`${what} is blank`);
  if (text.length > MAX_BLOCK_CHARS)
    return err(
      `${what} is ${text.length} characters; at most ${MAX_BLOCK_CHARS} are appended at once`,
    );
  if (hasControl(text)) return err(`${what} holds a control character`);
  return ok(redactSecrets(text));
}

/** A day `YYYY-MM-DD` (a real calendar date), or the reason. */
export function checkDate(what: string, value: string): Result<string> {
  const v = value.trim();
  return isIsoDate(v)
    ? ok(v)
    : err(`${what} must be a date YYYY-MM-DD, not ${JSON.stringify(value)}`);
}

/**
 * A link to a note or block of the vault (`note`, `note#^id`, `[[Folder/note#Heading]]`): not
 * blank, no control character, no bracket inside, and a path that stays inside the vault
 * (no absolute path, no `..`).
 * @returns the wikilink `[[…]]` to write, or the reason
 */
export function checkLink(what: string, value: string): Result<string> {
  const inner = unwrapWikilink(value);
  if (inner === "") return err(`${what} is empty`);
  // A link is written as given, so one holding a secret is refused, and the secret not repeated.
  if (redactSecrets(value) !== value) return err(`${what} holds a secret; nothing written`);
  if (hasControl(inner) || /[\r\n]/.test(inner))
    return err(`${what} holds a control character or a line break`);
  if (/[[\]]/.test(inner))
    return err(
      `${what} is not one link: ${JSON.stringify(value)} (write note, note#^block or [[note]])`,
    );
  const path = (linkTarget(inner).split("#")[0] ?? "").trim();
  if (path === "" && !linkTarget(inner).startsWith("#")) return err(`${what} names no note`);
  try {
    normalizeVaultPath(path);
  } catch {
    return err(`${what} leads outside the vault: ${JSON.stringify(value)}`);
  }
  return ok(`[[${inner}]]`);
}

/**
 * Whom an item is addressed to: one name or several (comma- or semicolon-separated), each written
 * as `atlas`, `@atlas` or `[[atlas]]`, each an agent's (or a person's) name as
 * {@link AGENT_NAME_RULE} allows.
 * @returns the `[to:: …]` value to write (`[[atlas]], [[ming]]`), or the reason
 */
export function checkAddressees(what: string, value: string): Result<string> {
  const names = value.split(/[,;]/).map((n) => unwrapWikilink(n.trim().replace(/^@/, "")).trim());
  if (names.every((n) => n === "")) return err(`${what} is empty: name an agent`);
  const out: string[] = [];
  for (const name of names) {
    if (name === "") return err(`${what} has an empty name in ${JSON.stringify(value)}`);
    if (sanitizeFileName(name) !== name)
      return err(`${what} ${JSON.stringify(name)} is not an agent name (${AGENT_NAME_RULE})`);
    out.push(`[[${name}]]`);
  }
  return ok(out.join(", "));
}

/** A priority as Tasks names it (or an old number), or the reason. */
export function checkPriority(what: string, value: string): Result<string> {
  const p = priorityWord(value);
  return p
    ? ok(p)
    : err(`${what} must be one of ${PRIORITY_WORDS.join(", ")}, not ${JSON.stringify(value)}`);
}

/**
 * An inline field `key:: value` given from outside: a date key ({@link DATE_FIELD_KEYS}) takes a
 * date, `priority` a priority, `to` addressees, `source` a link; any other value is a text
 * ({@link checkText}).
 * @returns the value to write, or the reason
 */
export function checkFieldValue(key: string, value: string): Result<string> {
  const k = key.trim().toLowerCase();
  const what = `field ${key}`;
  if (DATE_FIELD_KEYS.includes(k)) return checkDate(what, value);
  if (k === FIELD_KEYS.priority) return checkPriority(what, value);
  if (k === FIELD_KEYS.to) return checkAddressees(what, value);
  if (k === FIELD_KEYS.source) return checkLink(what, value);
  // A field named as a secret (`password`, `api_key`) keeps its name, not its value.
  if (isSecretName(k) && value.trim() !== "") return ok("[redacted: secret-field]");
  return checkText(what, value);
}

/**
 * A knowledge category of the settings (`learning`, …), matched without case.
 * @returns the category as the settings spell it, or the reason listing them
 */
export function checkCategory(categories: readonly string[], value: string): Result<string> {
  const v = value.trim();
  const found =
    categories.find((c) => c === v) ?? categories.find((c) => c.toLowerCase() === v.toLowerCase());
  return found
    ? ok(found)
    : err(
        `category ${JSON.stringify(value)} is not one of the vault's: ${categories.join(", ") || "none"}`,
      );
}
