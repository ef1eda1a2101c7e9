/**
 * Answers under tracker items (docs/mcp.md, "Tools" `update_tracker_item`): a child line
 * `    - Answer (<by>, YYYY-MM-DD): answer`, as the sample vault's questions carry theirs
 * (docs/plugin.md, "Tracker panel": a question's first lines are its observation, recommendation
 * and answer). A pure text operation for `VaultPort.process`, like those of store.ts.
 */
import { assertWritable, insertLines } from "../markdown/lines";
import { parseTracker, serializeTracker } from "./format";
import type { EditResult } from "./store";
import { err, ok } from "../util/result";

/**
 * Adds an answer line under item `id`, after its existing children, with the indentation of an
 * existing child list line (four spaces when there is none). The same answer already under the
 * item: unchanged. No item with that id: `ok: false`, `found: false`. `label` names the line
 * (`Answer` by default; the inbox writes `Comment`, `Declined`, `Accepted` lines the same way,
 * docs/inbox.md).
 * Throws `FrontmatterError` when the note's frontmatter does not parse.
 */
export function addAnswer(
  text: string,
  id: string,
  answer: string,
  by: string,
  date: string,
  path = "tracker note",
  label = "Answer",
): EditResult {
  const note = parseTracker(text);
  const item = note.items.find((it) => it.id === id);
  if (!item) return err({ found: false, message: `no item ^${id}` });
  assertWritable(note, path);
  const one = (s: string) => s.replace(/\s+/g, " ").trim();
  const body = `- ${one(label)} (${one(by)}, ${one(date)}): ${one(answer)}`;
  if (item.children.some((c) => c.trim() === body)) return ok({ text, changed: false });
  const indent =
    item.children.map((c) => /^([ \t]+)[-*+][ \t]/.exec(c)?.[1]).find((x) => x !== undefined) ??
    "    ";
  insertLines(note.lines, item.endLine, [indent + body], note.eol);
  return ok({ text: serializeTracker(note), changed: true });
}
