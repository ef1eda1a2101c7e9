/**
 * Ids that do not collide across clones (docs/decisions.md, "Random item ids across clones";
 * docs/sync.md, "How ids are assigned"). Tracker items get `<prefix>-` and ten random base32
 * characters (`t-k3f9x2m7qa`); journal blocks and callouts get ten base32 characters of a hash of
 * their content (`util/hash.ts`, `deriveShortId`), so two clones naming the same block agree. The
 * old numbered forms (`t-004`, `am-k3f9`, `c-1a2b`) stay valid wherever an id is read.
 *
 * The randomness is a port: core code takes a {@link RandomSource} and defaults to the web
 * platform's `crypto.getRandomValues` (Node 20, Obsidian desktop and mobile all have it), so tests
 * pass a seeded source and get the same ids every run.
 */

/**
 * Fills `bytes` with random bytes and returns it, as `crypto.getRandomValues` does. Tests pass a
 * seeded one; the default is {@link cryptoRandom}.
 */
export type RandomSource = (bytes: Uint8Array) => Uint8Array;

/** The web platform's cryptographically strong source, `globalThis.crypto.getRandomValues`. */
export const cryptoRandom: RandomSource = (bytes) => globalThis.crypto.getRandomValues(bytes);

/**
 * Crockford's base32 alphabet in lower case: digits and letters without `i`, `l`, `o`, `u`, so an
 * id read aloud or copied by hand is not mistaken, and every character is valid in an Obsidian
 * block id.
 */
export const ID_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** Letters of {@link ID_ALPHABET}: the first character of a random id, so it is never all digits. */
const ID_LETTERS = "abcdefghjkmnpqrstvwxyz";

/** Characters after the prefix of a new id: 22 × 32⁹ ≈ 7.7 × 10¹⁴ random ids per prefix. */
export const ID_LENGTH = 10;

/**
 * A new random id `<prefix><10 characters>` (e.g. `randomId("t-", …)` → `t-k3f9x2m7qa`): the first
 * character a letter of {@link ID_ALPHABET}, the other nine any of it. When the id is in `taken`
 * (ids without `^`), another is drawn. With 100,000 ids of one prefix over any number of clones, the
 * chance that any two are equal is about n² / 2N = 10¹⁰ / 1.5 × 10¹⁵ ≈ 6.5 × 10⁻⁶.
 */
export function randomId(
  prefix: string,
  taken: Pick<ReadonlySet<string>, "has"> = new Set(),
  random: RandomSource = cryptoRandom,
): string {
  for (;;) {
    const bytes = random(new Uint8Array(ID_LENGTH));
    let id = prefix + (ID_LETTERS[(bytes[0] ?? 0) % ID_LETTERS.length] ?? "a");
    for (let i = 1; i < ID_LENGTH; i++) id += ID_ALPHABET[(bytes[i] ?? 0) & 31] ?? "0";
    if (!taken.has(id)) return id;
  }
}

/**
 * `n` (≥ 0, below 2⁵³) as `length` base32 characters of {@link ID_ALPHABET}, its low bits, most
 * significant first (zero-padded).
 */
export function base32(n: number, length: number): string {
  let out = "";
  let v = Math.floor(n);
  for (let i = 0; i < length; i++) {
    out = (ID_ALPHABET[v % 32] ?? "0") + out;
    v = Math.floor(v / 32);
  }
  return out;
}

/**
 * A tracker item id in either form, old or new: one or more letters, a dash, then digits
 * (`t-004`) or letters and digits (`t-k3f9x2m7qa`). Group 1 is the prefix. Case-insensitive, as
 * people type ids.
 */
export const ITEM_ID_RE = /^([a-z]+)-([0-9a-z]+)$/i;

/** True when `id` (without `^`) is an item id of prefix `prefix` (`q`, `t` …) in either form. */
export function isItemIdOf(id: string, prefix: string): boolean {
  const m = ITEM_ID_RE.exec(id);
  return m !== null && m[1]?.toLowerCase() === prefix.toLowerCase();
}
