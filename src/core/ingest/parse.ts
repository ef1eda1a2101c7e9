/**
 * Reading a transcript of either format (docs/agents.md, "Importing past sessions"):
 * `--format auto` tells Claude Code from Codex by the first lines.
 */
import { UsageError } from "../errors";
import { parseClaudeCode } from "./claude-code";
import { parseCodex } from "./codex";
import type { TranscriptFormat, TranscriptReport } from "./types";

/** A format as messages name it. */
const FORMAT_NAMES: Record<TranscriptFormat, string> = {
  "claude-code": "Claude Code",
  codex: "Codex",
};

/** How many non-blank lines {@link detectFormat} looks at. */
const DETECT_LINES = 20;

/**
 * The format of a transcript from its first {@link DETECT_LINES} lines that parse: Codex lines have
 * a `payload` and a Codex line type (or, in old rollouts, a `record_type` or an `instructions`
 * field); Claude Code lines have a `sessionId`, or are a `summary`. `null` when neither shows.
 */
export function detectFormat(text: string): TranscriptFormat | null {
  let seen = 0;
  for (const raw of text.split("\n", 200)) {
    const line = raw.trim();
    if (line === "") continue;
    if (++seen > DETECT_LINES) break;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      continue;
    }
    if (v === null || typeof v !== "object" || Array.isArray(v)) continue;
    const r = v as Record<string, unknown>;
    if (
      (typeof r.payload === "object" &&
        ["session_meta", "response_item", "event_msg", "turn_context"].includes(String(r.type))) ||
      "record_type" in r ||
      ("instructions" in r && "id" in r)
    )
      return "codex";
    if (typeof r.sessionId === "string" || r.type === "summary") return "claude-code";
  }
  return null;
}

/**
 * Parses a transcript. `format` `auto` detects it ({@link detectFormat}); `name` (the file, for
 * messages and as the Codex session id when the file names none). A format given that the file's
 * lines show to be the other one is refused rather than read as "0 sessions".
 * @throws UsageError naming the file when the format cannot be told, or is not the one given
 */
export function parseTranscript(
  text: string,
  format: TranscriptFormat | "auto",
  name: string,
): TranscriptReport {
  const detected = detectFormat(text);
  const chosen = format === "auto" ? detected : format;
  if (detected !== null && chosen !== detected)
    throw new UsageError(
      `${name}: --format ${format}, but this is a ${FORMAT_NAMES[detected]} transcript; pass --format ${detected} or --format auto`,
      name,
    );
  if (chosen === null)
    throw new UsageError(
      `${name}: not a Claude Code or Codex transcript (no line names a session); pass --format claude-code or --format codex`,
      name,
    );
  return chosen === "codex" ? parseCodex(text, codexIdFromName(name)) : parseClaudeCode(text);
}

/** The session id in a rollout's name (`rollout-2026-12-01T10-00-00-<uuid>.jsonl`), else the name. */
export function codexIdFromName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  const uuid = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i.exec(base)?.[1];
  return uuid ?? base.replace(/\.jsonl$/, "");
}
