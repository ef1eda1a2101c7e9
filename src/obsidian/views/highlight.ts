/**
 * Marks matched words in a snippet with DOM nodes (`<mark>`), never an HTML string (no
 * `innerHTML`). Matching ignores case and Unicode width (NFKC), like the search tokenizer, so a
 * Chinese or full-width term is marked where the index found it.
 */

/** Lower-cased NFKC form of one character sequence; keeps length per character for mapping back. */
function fold(text: string): { folded: string; map: number[] } {
  let folded = "";
  const map: number[] = [];
  let i = 0;
  for (const ch of text) {
    const f = ch.normalize("NFKC").toLowerCase();
    folded += f;
    for (let k = 0; k < f.length; k++) map.push(i);
    i += ch.length;
  }
  map.push(text.length);
  return { folded, map };
}

/** Ranges `[start, end)` of `terms` in `text` (UTF-16 offsets), merged and sorted. */
export function matchRanges(text: string, terms: readonly string[]): [number, number][] {
  const { folded, map } = fold(text);
  const ranges: [number, number][] = [];
  const wanted = [
    ...new Set(
      terms.map((t) => t.normalize("NFKC").toLowerCase().trim()).filter((t) => t.length > 0),
    ),
  ];
  for (const term of wanted) {
    let from = 0;
    for (;;) {
      const at = folded.indexOf(term, from);
      if (at < 0) break;
      ranges.push([map[at] ?? 0, map[at + term.length] ?? text.length]);
      from = at + term.length;
    }
  }
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: [number, number][] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}

/** Appends `text` to `el` with every occurrence of `terms` wrapped in `<mark>`. */
export function appendHighlighted(el: HTMLElement, text: string, terms: readonly string[]): void {
  let pos = 0;
  for (const [start, end] of matchRanges(text, terms)) {
    if (start > pos) el.appendText(text.slice(pos, start));
    el.createEl("mark", { text: text.slice(start, end) });
    pos = end;
  }
  if (pos < text.length) el.appendText(text.slice(pos));
}
