/**
 * What a prompt brings back from memory (docs/agents.md, "What comes back"): the query a prompt
 * makes, which passages are relevant enough to add to it, and fitting text to a character cap
 * (Claude Code's hooks add at most 10,000 characters of context).
 */
import { tokenize } from "../search/engine/tokenizer";
import { STOP_WORDS } from "../search/engine/stop-words";
import type { Passage } from "../search/search-types";
import { truncateLine } from "../markdown/text";
import { scanInlineFields, scanItemLine, withoutInlineFields } from "../trackers/format";
import { isSuperseded } from "../trackers/fields";

/** Longest passage line added (characters). */
const MAX_PASSAGE_CHARS = 400;

/**
 * What a passage's entry no longer is, as its own line says: `superseded` (a `superseded_by` or
 * `valid_to` field, {@link isSuperseded}), `done` or `abandoned` (a task-list line's checkbox,
 * {@link scanItemLine}); `null` for an entry in force. The checkbox and the fields are left out of
 * the context line, so without this a done task or a replaced decision would read as current.
 */
export function passageState(text: string): "superseded" | "done" | "abandoned" | null {
  if (isSuperseded(scanInlineFields(text))) return "superseded";
  const status = scanItemLine(text.replace(/^\s+/, ""))?.status;
  return status === "done" || status === "abandoned" ? status : null;
}

/**
 * A passage as one line of context: list marker, checkbox and inline fields left out, cut; an
 * entry no longer in force ({@link passageState}) says so first: `(done) …`.
 */
function passageLine(text: string): string {
  const state = passageState(text);
  const plain = withoutInlineFields(text.replace(/^\s*(?:[-*+]|\d+[.)])\s+(?:\[.\]\s+)?/, ""));
  return truncateLine(state === null ? plain : `(${state}) ${plain}`, MAX_PASSAGE_CHARS);
}

/** Words of a request that say nothing about its subject, besides the search's stop words. */
const PROMPT_FILLER = new Set(
  tokenize(
    "please thanks thank help want need make let lets us use also now like get ok okay can could would should",
  ),
);

/** Most distinct words of a prompt used as a query (a pasted log would otherwise match everything). */
export const MAX_PROMPT_TERMS = 32;

/** The distinct search terms of a prompt: stop words and filler dropped, at most {@link MAX_PROMPT_TERMS}. */
export function promptTerms(prompt: string): string[] {
  const out: string[] = [];
  for (const t of tokenize(prompt)) {
    if (STOP_WORDS.has(t) || PROMPT_FILLER.has(t) || out.includes(t)) continue;
    out.push(t);
    if (out.length >= MAX_PROMPT_TERMS) break;
  }
  return out;
}

/**
 * A prompt as a plain query of the search's language: its words only (quotes, filters, a leading
 * `-` and other syntax removed), at most {@link MAX_PROMPT_TERMS} distinct words, journals left
 * out (what was said in sessions reaches memory through extraction). `null` when the prompt has
 * no word worth searching.
 */
export function promptQuery(prompt: string): string | null {
  const words: string[] = [];
  const seen = new Set<string>();
  for (const raw of prompt.split(/[\s"'`:()[\]{}<>*^~|\\,;!?]+/u)) {
    const w = raw.replace(/^[-+#@./]+|[-+#@./]+$/g, "");
    if (w === "") continue;
    const terms = tokenize(w).filter((t) => !STOP_WORDS.has(t) && !PROMPT_FILLER.has(t));
    if (terms.length === 0 || seen.has(w.toLowerCase())) continue;
    seen.add(w.toLowerCase());
    words.push(w);
    if (words.length >= MAX_PROMPT_TERMS) break;
  }
  return words.length ? `${words.join(" ")} -type:journal` : null;
}

/** The share of `terms` that `text` holds, 0–1 (0 for no terms). */
export function termCoverage(terms: readonly string[], text: string): number {
  if (terms.length === 0) return 0;
  const have = new Set(tokenize(text));
  return terms.filter((t) => have.has(t)).length / terms.length;
}

/** Options of {@link promptContext}. */
export interface PromptContextOptions {
  /** Most characters of the context (header included). */
  budgetChars: number;
  /**
   * Share of the prompt's terms ({@link promptTerms}) a passage (its text, heading and note
   * title) must hold to be relevant enough, 0–1; and at least two terms when the prompt has two
   * or more.
   */
  minCoverage: number;
}

/**
 * The context a prompt gets: the passages relevant enough ({@link PromptContextOptions}), best
 * first, one line each with its link, as many as fit in `budgetChars`; `null` when none is
 * relevant enough (an unrelated prompt adds nothing).
 */
export function promptContext(
  prompt: string,
  passages: readonly Passage[],
  options: PromptContextOptions,
): { text: string; passages: Passage[] } | null {
  const terms = promptTerms(prompt);
  if (terms.length === 0) return null;
  const need = Math.min(2, terms.length);
  const relevant = passages.filter((p) => {
    const share = termCoverage(terms, `${p.title}\n${p.heading ?? ""}\n${p.text}`);
    return share >= options.minCoverage && share * terms.length >= need;
  });
  if (relevant.length === 0) return null;
  const header = "From Agent Memory (passages relevant to this prompt; open a link for more):";
  let text = header;
  const kept: Passage[] = [];
  for (const p of relevant) {
    const line = `\n- ${passageLine(p.text)} (${p.link})`;
    if (text.length + line.length > options.budgetChars) continue;
    text += line;
    kept.push(p);
  }
  return kept.length ? { text, passages: kept } : null;
}

/**
 * `text` cut to at most `maxChars` characters at a line end, with a last line saying it was
 * cut; unchanged when it fits.
 */
export function fitChars(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const note = "\n(cut to fit; run agent-memory brief for the rest)";
  const room = Math.max(0, maxChars - note.length);
  let head = text.slice(0, room);
  const nl = head.lastIndexOf("\n");
  if (nl > 0) head = head.slice(0, nl);
  return head + note;
}
