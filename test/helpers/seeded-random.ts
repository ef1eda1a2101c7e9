import type { RandomSource } from "../../src/core/util/ids";

/**
 * A deterministic {@link RandomSource} (mulberry32 from `seed`): the same seed gives the same
 * bytes, so ids drawn in a test are the same every run.
 */
export function seededRandom(seed: number): RandomSource {
  let a = seed >>> 0;
  return (bytes) => {
    for (let i = 0; i < bytes.length; i++) {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      bytes[i] = ((t ^ (t >>> 14)) >>> 0) & 0xff;
    }
    return bytes;
  };
}

/** Item ids in either form, old (`t-004`) or new (`t-k3f9x2m7qa`), for assertions on written lines. */
export const ANY_ID = "[a-z]-(?:\\d{3,}|[a-hjkmnp-tv-z][0-9a-hjkmnp-tv-z]{9})";

/**
 * `text` with every new-form tracker item id (`t-k3f9x2m7qa`) written `t-<id>`: two runs of the CLI
 * draw different random ids (docs/decisions.md, "Random item ids across clones"), so a test that
 * compares an interrupted run's notes with an uninterrupted one's compares them without the ids.
 * Old numbered ids and content-derived block ids (`am-…`, `c-…` after a letter) are left as written.
 */
export function maskRandomIds(text: string): string {
  return text.replace(/\b([a-z])-[a-hjkmnp-tv-z][0-9a-hjkmnp-tv-z]{9}\b/g, "$1-<id>");
}
