/**
 * Putting back a save our rename hid (docs/write-safety.md, "A person's edit survives"). A program
 * that opened a note before our rename and saved into the old file after it wrote `theirs` from
 * `base` (the text we had read); by the time we notice, the note may hold `current` (our edit, and
 * maybe a later save of theirs). {@link restoreLostLines} returns `current` with every line that
 * `theirs` added to `base` and `current` lacks put back after the line that preceded it in `theirs`
 * (at the end when that line is gone), so no line of theirs is lost. Lines `theirs` removed are
 * kept: losing a line is worse than keeping one a person meant to delete.
 */

/** Splits text into lines without their endings; `eol` is the first ending found (`\n` if none). */
function lines(text: string): { list: string[]; eol: string; final: boolean } {
  const eol = /\r\n/.exec(text) && text.indexOf("\r\n") === text.indexOf("\n") - 1 ? "\r\n" : "\n";
  const final = text.endsWith("\n");
  const body = final ? text.slice(0, text.endsWith("\r\n") ? -2 : -1) : text;
  return { list: body === "" && final ? [""] : body.split(/\r?\n/), eol, final };
}

function counts(list: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const l of list) out.set(l, (out.get(l) ?? 0) + 1);
  return out;
}

/**
 * `current` with the lines `theirs` added to `base` put back where `current` lacks them.
 * @param base the text both `theirs` and our edit started from
 * @param theirs another program's save made from `base`
 * @param current the note as it is now
 * @returns `current` unchanged when it already holds every added line; otherwise `current` with
 *   them inserted, in their order, each after the line before it in `theirs`, keeping `current`'s
 *   line endings and final newline
 */
export function restoreLostLines(base: string, theirs: string, current: string): string {
  const baseList = lines(base).list;
  const b = counts(baseList);
  const inBaseAll = counts(baseList);
  const t = lines(theirs).list;
  const cur = lines(current);
  const have = counts(cur.list);
  // Lines of theirs beyond what base had, with the line before each in theirs.
  const added: { line: string; after: string | null }[] = [];
  for (let i = 0; i < t.length; i++) {
    const line = t[i] ?? "";
    const inBase = b.get(line) ?? 0;
    if (inBase > 0) {
      b.set(line, inBase - 1);
      continue;
    }
    added.push({ line, after: i > 0 ? (t[i - 1] ?? null) : null });
  }
  const out = [...cur.list];
  let changed = false;
  for (const { line, after } of added) {
    // Copies of the line in current beyond those base had are theirs already there.
    const present = have.get(line) ?? 0;
    if (present > (inBaseAll.get(line) ?? 0)) {
      have.set(line, present - 1);
      continue;
    }
    let at = out.length;
    if (after === null) at = 0;
    else {
      const j = out.lastIndexOf(after);
      if (j >= 0) at = j + 1;
      else if (out.length > 0 && out[out.length - 1] === "" && !cur.final) at = out.length - 1;
    }
    out.splice(at, 0, line);
    changed = true;
  }
  if (!changed) return current;
  return out.join(cur.eol) + (cur.final ? cur.eol : "");
}
