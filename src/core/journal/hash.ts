/**
 * Content hashes for journals (docs/architecture.md, "Journals": `extraction_hash`) and block id
 * seeds. Pure JavaScript so the core runs on Obsidian mobile (no `node:crypto`).
 */
import { stripBlockIds } from "./split";

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
 * The text a journal's extraction hash is taken over: block ids removed, line endings as LF,
 * trailing whitespace and blank lines dropped — so the ids that extraction adds (and the blank lines
 * around a standalone `^id`) never change the hash, while any edit of the words does.
 */
export function hashableText(body: string): string {
  return stripBlockIds(body)
    .split("\n")
    .map((line) => line.replace(/\s+$/, ""))
    .filter((line) => line !== "")
    .join("\n");
}

/**
 * Hash of a journal body for `extraction_hash` (docs/architecture.md, "Journals"): 28 lowercase hex
 * digits (two cyrb53 runs). Unchanged by block ids added or kept, by CRLF versus LF, trailing
 * whitespace and blank lines.
 */
export function extractionHash(body: string): string {
  const text = hashableText(body);
  return [0, 0x9e3779b9].map((seed) => cyrb53(text, seed).toString(16).padStart(14, "0")).join("");
}
