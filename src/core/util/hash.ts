/**
 * Hashes for noticing edits and deriving ids (docs/architecture.md, "Journals"). Pure JavaScript so
 * the core runs on Obsidian mobile (no `node:crypto`).
 */

/**
 * cyrb53 (public domain, bryc): a fast 53-bit string hash with good spread over UTF-16 code units.
 * Not cryptographic; used to notice edits and to derive ids, never for security.
 */
export function cyrb53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * cyrb53 of `text` once per seed, each as 14 lowercase hex digits (53 bits), joined: the
 * `extraction_hash` of journals and the `digest_hash` of digests (two seeds, 28 digits).
 */
export function cyrb53Hex(text: string, seeds: readonly number[]): string {
  return seeds.map((seed) => cyrb53(text, seed).toString(16).padStart(14, "0")).join("");
}

/**
 * FNV-1a (32 bits) over UTF-16 code units: a short stable tag (topic ids of titles that have no
 * safe slug), not a security hash.
 */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Ids of four base-36 characters: 1,679,616 of them per prefix. */
const SHORT_ID_SPACE = 36 ** 4;

/**
 * A deterministic short id `<prefix>xxxx` (four lowercase base-36 characters of the hash of
 * `seed`), so re-runs on the same text give the same ids. When it is in `taken` (ids without `^`),
 * another is derived from the seed until one is free; beyond four times the id space the id is
 * widened to the whole hash rather than looping for ever. Used for journal block ids (`am-`) and
 * callout ids (`c-`).
 */
export function deriveShortId(prefix: string, seed: string, taken: ReadonlySet<string>): string {
  for (let attempt = 0; ; attempt++) {
    const hash = cyrb53(attempt === 0 ? seed : `${seed}\u0000${attempt}`);
    const id = `${prefix}${(hash % SHORT_ID_SPACE).toString(36).padStart(4, "0")}`;
    if (!taken.has(id)) return id;
    if (attempt > 4 * SHORT_ID_SPACE) return `${prefix}${hash.toString(36)}`;
  }
}
