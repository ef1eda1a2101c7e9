/**
 * Hashes for noticing edits and deriving ids (docs/architecture.md, "Journals"). Pure JavaScript so
 * the core runs on Obsidian mobile (no `node:crypto`).
 */
import { base32 } from "./ids";

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

/**
 * A deterministic short id `<prefix>xxxxxxxxxx`: ten base32 characters (50 bits) of the hash of
 * `seed`, so re-runs and other clones give the same id to the same text (docs/decisions.md, "Random
 * item ids across clones"). When it is in `taken` (ids without `^`), another is derived from the
 * seed until one is free. Used for journal block ids (`am-`) and callout ids (`c-`); ids written
 * before in the old four-character form (`am-k3f9`) stay as they are.
 * @param tried for a run of calls whose `taken` only grows (each id given is added to it): the
 *   next attempt per seed, kept by this function, so that the same seed again starts where the
 *   last one stopped; the ids are those given without it
 */
export function deriveShortId(
  prefix: string,
  seed: string,
  taken: ReadonlySet<string>,
  tried?: Map<string, number>,
): string {
  // Attempts an earlier call for the same seed found taken are taken still (`taken` only grows
  // between the calls sharing `tried`): many identical blocks cost one attempt each, not as many
  // as there are blocks before them.
  for (let attempt = tried?.get(seed) ?? 0; ; attempt++) {
    const id = shortIdAttempt(prefix, seed, attempt);
    if (!taken.has(id)) {
      tried?.set(seed, attempt + 1);
      return id;
    }
  }
}

/**
 * True when `id` is one that {@link deriveShortId} gives `seed` (its first id, or one of the next
 * `attempts - 1` drawn when the first were taken): the text the seed was made of is the text the
 * id was derived from. False for any other id, such as one written by hand or in the old
 * four-character form.
 */
export function isDerivedShortId(prefix: string, seed: string, id: string, attempts = 8): boolean {
  if (!id.startsWith(prefix)) return false;
  for (let attempt = 0; attempt < attempts; attempt++)
    if (shortIdAttempt(prefix, seed, attempt) === id) return true;
  return false;
}

function shortIdAttempt(prefix: string, seed: string, attempt: number): string {
  const hash = cyrb53(attempt === 0 ? seed : `${seed}\u0000${attempt}`);
  return `${prefix}${base32(hash % SHORT_ID_SPACE, 10)}`;
}

/** 2⁵⁰: the ids {@link deriveShortId} draws from per prefix. */
const SHORT_ID_SPACE = 2 ** 50;

/**
 * FNV-1a (32 bits) over bytes: the checksum of a record of the vector file
 * (docs/architecture.md, "Semantic recall"), not a security hash.
 */
export function fnv1aBytes(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) {
    h ^= bytes[i] ?? 0;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
