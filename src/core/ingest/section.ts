/**
 * A session's section in a journal (docs/agents.md, "Where it goes"): a `##` heading naming the
 * session, a marker comment that is the ingest watermark (docs/decisions.md, "The ingest watermark
 * lives in the journal section"), and one `###` part per turn — the request, what was done, the
 * answer (every assistant text of the turn). Pure text functions, run inside `VaultPort.process`.
 */
import { insertJournalBlock } from "../journal/append";
import { TURN_LABELS } from "../journal/turn-labels";
import { joinLines, splitLines } from "../markdown/lines";
import { collapseWhitespace, inertMarkdown } from "../markdown/text";
import { localDate } from "../util/dates";
import { cutBeforeRedaction, redactSecrets } from "../redact";
import type { TranscriptFormat, TranscriptSession, Turn, TurnAction } from "./types";
import { fenceAfter } from "../markdown/fences";

/** Longest request kept (characters); the rest is cut with a note. */
export const MAX_REQUEST_CHARS = 2000;
/** Longest answer kept (characters): all the assistant texts of a turn together. */
export const MAX_CONCLUSION_CHARS = 6000;
/** Most actions listed per turn; more are counted. */
export const MAX_ACTIONS = 30;

const FORMAT_LABEL: Record<TranscriptFormat, string> = {
  "claude-code": "Claude Code",
  codex: "Codex",
};

/** The watermark line: `%% agent-memory ingest <format> <id> turns=<n> last=<key> %%`. */
const MARKER =
  /^%% agent-memory ingest (\S+) (\S+) turns=(\d+) last=(\S+) %%(?: \^[A-Za-z0-9-]+)?$/;

/** What a section's watermark says. */
export interface Watermark {
  /** 0-based line of the marker (as {@link splitLines} counts). */
  line: number;
  format: string;
  turns: number;
  last: string;
}

/** The watermark of session `id` in a journal, or `null` when the journal has no section for it. */
export function findWatermark(text: string, id: string): Watermark | null {
  const { lines } = splitLines(text);
  for (let i = 0; i < lines.length; i++) {
    const m = MARKER.exec(lines[i]?.text ?? "");
    if (m && m[2] === id)
      return { line: i, format: m[1] ?? "", turns: Number(m[3]), last: m[4] ?? "" };
  }
  return null;
}

function markerLine(format: TranscriptFormat, id: string, turns: number, last: string): string {
  return `%% agent-memory ingest ${format} ${id} turns=${turns} last=${last} %%`;
}

/** The local `HH:MM` of an ISO timestamp, or `""`. */
function clock(at: string): string {
  const ms = Date.parse(at);
  if (Number.isNaN(ms)) return "";
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

/** The day a session goes in: the local date of its first timestamped turn, else `fallback`. */
export function sessionDay(session: TranscriptSession, fallback: string): string {
  for (const t of session.turns) {
    const ms = Date.parse(t.at);
    if (!Number.isNaN(ms)) return localDate(ms);
  }
  return fallback;
}

/**
 * Cuts `text` to `max` characters at a line end when it can, closing a code fence left open. Its
 * secrets are redacted first: a key that crossed the cut would no longer match its pattern.
 */
function cut(whole: string, max: number): string {
  const text = redactSecrets(whole);
  if (text.length <= max) return text;
  let head = text.slice(0, cutBeforeRedaction(text, max));
  const nl = head.lastIndexOf("\n");
  if (nl > max / 2) head = head.slice(0, nl);
  let fence: string | null = null;
  for (const line of head.split("\n")) fence = fenceAfter(fence, line.trimStart());
  return `${head.trimEnd()}${fence !== null ? `\n${fence}` : ""}\n\n(cut: ${text.length - head.length} more characters)`;
}

/**
 * Text from a transcript made safe for the section: headings pushed below the turn's `###`
 * (to `####`), a bold or colon-ended label line followed by a list made a `####` heading (so
 * "**Next steps:**" reads as the heading extraction looks for), watermark-like lines defused;
 * code fences left as they are, and one left open closed at the end.
 */
function asBody(text: string): string {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const out: string[] = [];
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    // A fence may be indented as a list item's child: its indent is not read.
    const after = fenceAfter(fence, line.trimStart());
    if (after !== null || fence !== null) {
      fence = after;
      out.push(line);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      out.push(`${"#".repeat(Math.max(4, heading[1]?.length ?? 4))} ${heading[2] ?? ""}`);
      continue;
    }
    const next = lines[i + 1] ?? "";
    const label =
      /^\s*(?:\*\*|__)(.{2,60}?)(?:\*\*|__)\s*:?\s*$|^\s*([^\s*#>-][^:*]{1,58}):\s*$/.exec(line);
    if (label && /^\s*(?:[-*+]|\d+[.)])\s/.test(next)) {
      out.push(`#### ${(label[1] ?? label[2] ?? "").replace(/:$/, "").trim()}`);
      continue;
    }
    out.push(line.startsWith("%% agent-memory ingest") ? `\\${line}` : line);
  }
  // A fence the text left open would make the rest of the turn, and the turns after it, code.
  if (fence !== null) out.push(fence);
  return out.join("\n").trim();
}

/** `edited \`a.ts\`, \`b.ts\`; ran \`npm test\` (failed)`. */
function actionsLine(actions: readonly TurnAction[]): string {
  const shown = actions.slice(0, MAX_ACTIONS);
  const parts: string[] = [];
  const files = (kind: TurnAction["kind"], verb: string) => {
    const seen = [...new Set(shown.filter((a) => a.kind === kind).map((a) => a.target))];
    if (seen.length) parts.push(`${verb} ${seen.map(code).join(", ")}`);
  };
  files("wrote", "wrote");
  files("edited", "edited");
  files("deleted", "deleted");
  const runs = shown.filter((a) => a.kind === "ran");
  if (runs.length)
    parts.push(
      `ran ${runs.map((a) => `${code(a.target)}${a.failed ? " (failed)" : ""}`).join(", ")}`,
    );
  const more = actions.length - shown.length;
  return parts.join("; ") + (more > 0 ? `; and ${more} more` : "");
}

/** Inline code holding `text` (a longer backtick run when it holds backticks). */
function code(text: string): string {
  const ticks = "`".repeat(Math.max(1, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  const pad = ticks.length > 1 ? " " : "";
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

/** `label` put before `body`: on its first line when that is plain text, else as a line of its own. */
function labelled(label: string, body: string): string {
  const plain = !/^\s*(?:[-*+]\s|\d+[.)]\s|#|>|```|~~~|\||\s{4})/.test(body);
  return plain ? `${label} ${body}` : `${label}\n\n${body}`;
}

/** The Markdown of one turn: a `###` heading with its time, the request, what was done, the answer. */
export function renderTurn(turn: Turn): string {
  const time = clock(turn.at);
  const parts = [`### ${time || "Turn"}`];
  parts.push(
    labelled(TURN_LABELS.asked, asBody(cut(turn.request, MAX_REQUEST_CHARS)) || "(empty)"),
  );
  const did = actionsLine(turn.actions);
  if (did) parts.push(`${TURN_LABELS.done} ${did}.`);
  if (turn.interrupted) parts.push("**Interrupted** by the person.");
  if (turn.conclusion)
    parts.push(labelled(TURN_LABELS.answer, asBody(cut(turn.conclusion, MAX_CONCLUSION_CHARS))));
  return parts.join("\n\n");
}

/** The heading line of a session's section. */
function headingLine(session: TranscriptSession): string {
  const short = session.id.slice(0, 8);
  // A title is the transcript's: its links and tags are shown, not followed (inertMarkdown).
  const title = session.title ? ` · ${inertMarkdown(collapseWhitespace(session.title))}` : "";
  return `## ${FORMAT_LABEL[session.format]} session ${short}${title}`;
}

/** The end of the section whose marker is at `markerLine`: the next `#`/`##` heading outside code, or the end. */
function sectionEnd(text: string, markerLineIndex: number): number {
  const { lines } = splitLines(text);
  let fence: string | null = null;
  for (let i = markerLineIndex + 1; i < lines.length; i++) {
    const t = lines[i]?.text ?? "";
    const after = fenceAfter(fence, t.trimStart());
    if (after !== null || fence !== null) fence = after;
    else if (/^#{1,2}\s/.test(t)) {
      // Stop before the blank lines that precede the next heading.
      let end = i;
      while (end > markerLineIndex + 1 && (lines[end - 1]?.text ?? "").trim() === "") end--;
      return end;
    }
  }
  return lines.length;
}

/** What {@link mergeSession} did. */
export interface MergeResult {
  /** The journal's new text (the same as `current` when nothing changed). */
  text: string;
  /**
   * `new`: a section was started; `grown`: turns were added to it; `unchanged`: it holds every
   * turn already (or the transcript holds fewer turns than it: an earlier copy); `diverged`: its last turn is not in the transcript (another file, or notify and
   * rollout both wrote it), so nothing was added rather than risk a duplicate.
   */
  status: "new" | "grown" | "unchanged" | "diverged";
  /** Turns written. */
  added: Turn[];
}

/**
 * Adds the turns of `session` not yet in the journal: a new section at the end of the journal,
 * or the new turns at the end of its section with its watermark moved on. Everything written is
 * passed through {@link redactSecrets}; every other line of the journal is kept byte for byte.
 * @param current the journal's text, `null` when it does not exist (started as a new journal)
 */
export function mergeSession(
  current: string | null,
  session: TranscriptSession,
  note: { agent: string; date: string; path: string },
): MergeResult {
  const mark = current === null ? null : findWatermark(current, session.id);
  let fresh: Turn[];
  if (mark === null) fresh = session.turns;
  else if (session.incremental) fresh = session.turns.filter((t) => t.key !== mark.last);
  else {
    const at = session.turns.findIndex((t) => t.key === mark.last);
    // A file holding fewer turns than the section is an earlier copy (a resumed session's file,
    // a transcript read before it grew): nothing of it is new.
    if (at < 0)
      return {
        text: current ?? "",
        status: session.turns.length < mark.turns ? "unchanged" : "diverged",
        added: [],
      };
    fresh = session.turns.slice(at + 1);
  }
  if (fresh.length === 0) return { text: current ?? "", status: "unchanged", added: [] };
  const last = fresh[fresh.length - 1]?.key ?? "";
  const body = redactSecrets(fresh.map(renderTurn).join("\n\n"));
  if (mark === null || current === null) {
    const head = `${redactSecrets(headingLine(session))}\n${markerLine(session.format, session.id, fresh.length, last)}`;
    const { text } = insertJournalBlock(
      current,
      `${head}\n\n${body}`,
      note,
      Number.POSITIVE_INFINITY,
    );
    return { text, status: "new", added: fresh };
  }
  const inserted = insertJournalBlock(current, body, note, sectionEnd(current, mark.line)).text;
  // The marker line (and its block id, if one was added) is rewritten in place.
  const { bom, lines } = splitLines(inserted);
  const line = lines[mark.line];
  if (line) {
    const id = / \^[A-Za-z0-9-]+$/.exec(line.text)?.[0] ?? "";
    line.text = markerLine(session.format, session.id, mark.turns + fresh.length, last) + id;
  }
  return {
    text: joinLines(bom, lines),
    status: "grown",
    added: fresh,
  };
}
