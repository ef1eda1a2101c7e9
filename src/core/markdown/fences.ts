/**
 * Fenced code blocks, as CommonMark defines them (https://spec.commonmark.org/0.31.2/#fenced-code-blocks):
 * the one fence rule of the project. The journal splitter, block ids and headings, conflict
 * markers, the sync merge, transcript sections and search blocks all ask here whether a line opens
 * or closes a fence, so text inside code is never read as Markdown.
 *
 * Not applied: CommonMark's refusal of a backtick in a backtick fence's info string (```` ```a`b ````
 * opens a fence here), and a fence's container indent, which a caller strips first when a fence
 * may sit in a list item.
 */

const OPENER = /^ {0,3}(`{3,}|~{3,})/;
const CLOSER = /^ {0,3}(`{3,}|~{3,})[ \t]*\r?$/;

/**
 * The fence a line opens: its marker (three or more backticks, or three or more tildes, after at
 * most three spaces), or `null` when the line opens none. Any text may follow the marker (the info
 * string, e.g. ```` ```ts ````).
 * @example fenceOpener("  ~~~~ md") // "~~~~"
 */
export function fenceOpener(line: string): string | null {
  return OPENER.exec(line)?.[1] ?? null;
}

/**
 * True when `line` closes a fence opened with `marker` (from {@link fenceOpener}): at most three
 * spaces, then a run of the same character at least as long as `marker`, then nothing but spaces
 * or tabs (a trailing `\r` is the line's end).
 * @example closesFence("`````", "````") // true; closesFence("```ts", "```") // false
 */
export function closesFence(line: string, marker: string): boolean {
  const run = CLOSER.exec(line)?.[1];
  return run !== undefined && run[0] === marker[0] && run.length >= marker.length;
}

/**
 * The open fence after `line`, walking a text line by line: `fence` is the marker of the fence
 * open before the line (`null`: none). Outside a fence, the marker the line opens or `null`;
 * inside, `null` when the line closes it, else `fence` unchanged. A line opened or closed a fence
 * exactly when the result differs from `fence`.
 */
export function fenceAfter(fence: string | null, line: string): string | null {
  if (fence === null) return fenceOpener(line);
  return closesFence(line, fence) ? null : fence;
}

/**
 * The line that closes a fence still open after the last of `lines` (walked as {@link fenceAfter}
 * walks them; a trailing `\r` is the line's end): the opener's indent and its marker, so a fence a
 * list item's line opened closes inside that item (`  ```` for `  ```sh`); `null` when no fence is
 * left open.
 * @example fenceCloserAfter(["Ran:", "```sh", "npm test"]) // "```"
 */
export function fenceCloserAfter(lines: Iterable<string>): string | null {
  let fence: string | null = null;
  let indent = "";
  for (const raw of lines) {
    const line = raw.replace(/\r$/, "");
    const after = fenceAfter(fence, line);
    if (fence === null && after !== null) indent = /^ */.exec(line)?.[0] ?? "";
    fence = after;
  }
  return fence === null ? null : `${indent}${fence}`;
}

/**
 * The code spans of one line, as CommonMark defines them
 * (https://spec.commonmark.org/0.31.2/#code-spans): a run of backticks up to the next run of the
 * same length. Each as `[start, end)` offsets in `line`, the backticks included; a run left
 * unclosed is text. Backslash escapes are not applied (a `` \` `` still opens a span here).
 */
export function codeSpans(line: string): [number, number][] {
  const spans: [number, number][] = [];
  const runs = [...line.matchAll(/`+/g)];
  for (let i = 0; i < runs.length; i++) {
    const open = runs[i]!;
    const close = runs.findIndex((r, j) => j > i && r[0].length === open[0].length);
    if (close < 0) continue;
    const end = runs[close]!;
    spans.push([open.index, end.index + end[0].length]);
    i = close;
  }
  return spans;
}
