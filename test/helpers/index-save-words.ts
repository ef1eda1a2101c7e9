// The words of test/helpers/index-save-worker.ts, for the test that searches for them.

/**
 * The word only the note of round `i` of process `tag` holds: letters only (one token), ending in
 * `qz` so that no stemming rule makes two of them one term.
 */
export function uniqueWord(tag: string, i: number): string {
  return `word${tag}${String.fromCharCode(97 + Math.floor(i / 26), 97 + (i % 26))}qz`;
}
