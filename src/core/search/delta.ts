/**
 * The delta beside the saved index (docs/architecture.md, "The saved index"; docs/decisions.md,
 * "Saves append a delta"): a save appends only the notes changed or removed since the last save,
 * and the saved index is the base file plus this delta replayed in order. Once the delta outgrows
 * {@link COMPACT_FRACTION} of the base or {@link MAX_DELTA_NOTES} notes, the next save rewrites
 * the base and starts a new delta.
 *
 * Layout: a 16-byte preamble (`AMDX`, {@link DELTA_VERSION}, the header's length and
 * {@link hashBytes}, u32/i32 little-endian), a UTF-8 JSON header (the index format version, the
 * index key and the id of the base it follows, `savedIndexId`), then records, each its payload's
 * length (u32), the {@link hashBytes} (i32) of what follows it, the number of notes it holds (u32)
 * and the payload: UTF-8 JSON of the notes (metadata and the text of each indexed field) and the
 * paths removed. A record cut short or whose
 * checksum fails ends the delta there (a process killed mid-append leaves a loadable index, the
 * records before it); a delta with another header (another version, settings or base) is not used.
 */
import type { Result } from "../util/result";
import { hashBytes } from "./engine/postings-bytes";
import { decodeFilters, encodeFilters } from "./engine/phrase-filter";
import { INDEX_FIELDS, type IndexDoc, type NoteMeta } from "./note-document";
import { INDEX_FORMAT_VERSION, isMeta } from "./persistence";

/** Bumped whenever the delta's layout changes; a delta of another version is not used. */
export const DELTA_VERSION = 1;
/** A save rewrites the base once the delta would exceed 1/COMPACT_FRACTION of the base's bytes. */
export const COMPACT_FRACTION = 32;
/**
 * …or once the delta would hold more than this many notes (changed or removed, counted per
 * record): replaying a note turns the postings of each of its terms into a map, which made an
 * open at 10k notes about 0.75 s slower with 220 notes in the delta and about 0.1 s with 64
 * (docs/decisions.md, "Saves append a delta").
 */
export const MAX_DELTA_NOTES = 64;

const FORMAT = "agent-memory-search-delta";
/** "AMDX": the first four bytes of a delta. */
const MAGIC = [0x41, 0x4d, 0x44, 0x58];
const PREAMBLE = 16;
/** Bytes before a record's payload: its length, checksum and count of notes. */
const FRAME = 12;

/** A note as a delta holds it: what the index is given for it (see `buildNoteDocument`). */
export interface DeltaNote {
  meta: NoteMeta;
  doc: IndexDoc;
  /** The phrase filter (none for a note over the size cap). */
  pairs?: Uint32Array;
}

/** One save's changes: the notes indexed since the last save (as now), then the paths removed. */
export interface DeltaRecord {
  notes: DeltaNote[];
  removed: string[];
}

/**
 * True when a save should rewrite the base rather than append: when the delta (`deltaBytes`,
 * header included, holding `deltaNotes` notes) with the new record (`recordBytes`, `recordNotes`)
 * would exceed 1/{@link COMPACT_FRACTION} of the base's `baseBytes`, or hold more than
 * {@link MAX_DELTA_NOTES} notes.
 */
export function shouldCompact(
  baseBytes: number,
  delta: { bytes: number; notes: number },
  record: { bytes: number; notes: number },
): boolean {
  return (
    (delta.bytes + record.bytes) * COMPACT_FRACTION > baseBytes ||
    delta.notes + record.notes > MAX_DELTA_NOTES
  );
}

/** The header of a new delta following the base `base` (`savedIndexId`) of an index keyed `key`. */
export function deltaHeader(key: string, base: string): Uint8Array {
  const head = new TextEncoder().encode(
    JSON.stringify({ format: FORMAT, index: INDEX_FORMAT_VERSION, key, base }),
  );
  const out = new Uint8Array(PREAMBLE + head.length);
  out.set(MAGIC, 0);
  const view = new DataView(out.buffer);
  view.setUint32(4, DELTA_VERSION, true);
  view.setUint32(8, head.length, true);
  view.setInt32(12, hashBytes(head), true);
  out.set(head, PREAMBLE);
  return out;
}

/** A record framed for appending: length, checksum, payload (see the module comment). */
export function encodeDeltaRecord(record: DeltaRecord): Uint8Array {
  const payload = new TextEncoder().encode(
    JSON.stringify({
      notes: record.notes.map((n) => ({ meta: n.meta, doc: INDEX_FIELDS.map((f) => n.doc[f]) })),
      pairs: encodeFilters(record.notes.map((n) => n.pairs)),
      removed: record.removed,
    }),
  );
  const out = new Uint8Array(FRAME + payload.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, payload.length, true);
  view.setUint32(8, record.notes.length + record.removed.length, true);
  out.set(payload, FRAME);
  view.setInt32(4, hashBytes(out, 8), true);
  return out;
}

/** The notes a record counts (changed and removed), from its frame. */
export function recordNotes(record: Uint8Array): number {
  return new DataView(record.buffer, record.byteOffset, record.byteLength).getUint32(8, true);
}

/**
 * The whole records of a delta: where each payload starts and ends, the notes they count, and the
 * length of the delta up to the end of its last whole record (a write appends there, leaving out
 * a torn tail). Fails when the header is damaged or follows another version, key or base.
 * @param indexVersion the format of the base it follows (an older base's delta still replays)
 */
export function scanDelta(
  bytes: Uint8Array,
  key: string,
  base: string,
  indexVersion = INDEX_FORMAT_VERSION,
): Result<{ payloads: [number, number][]; notes: number; length: number }> {
  const header = headerEnd(bytes, key, base, indexVersion);
  if (!header.ok) return header;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const payloads: [number, number][] = [];
  let notes = 0;
  let at = header.value;
  while (at + FRAME <= bytes.length) {
    const length = view.getUint32(at, true);
    const end = at + FRAME + length;
    if (end > bytes.length) break;
    // The checksum covers the count of notes and the payload.
    if (hashBytes(bytes, at + 8, end) !== view.getInt32(at + 4, true)) break;
    payloads.push([at + FRAME, end]);
    notes += view.getUint32(at + 8, true);
    at = end;
  }
  return { ok: true, value: { payloads, notes, length: at } };
}

/**
 * The records of a delta, in the order written (see {@link scanDelta}). Fails, naming why, when the
 * header does not match or a whole record (its checksum holding) is malformed.
 */
export function readDelta(
  bytes: Uint8Array,
  key: string,
  base: string,
  indexVersion = INDEX_FORMAT_VERSION,
): Result<{ records: DeltaRecord[]; notes: number; length: number }> {
  const scanned = scanDelta(bytes, key, base, indexVersion);
  if (!scanned.ok) return scanned;
  const decoder = new TextDecoder();
  const records: DeltaRecord[] = [];
  for (const [from, to] of scanned.value.payloads) {
    const record = parseRecord(decoder.decode(bytes.subarray(from, to)));
    if (!record) return { ok: false, error: `delta is corrupt (malformed record at byte ${from})` };
    records.push(record);
  }
  return {
    ok: true,
    value: { records, notes: scanned.value.notes, length: scanned.value.length },
  };
}

/** Where the header ends, or why the delta is not one for this key and base. */
function headerEnd(
  bytes: Uint8Array,
  key: string,
  base: string,
  indexVersion: number,
): Result<number> {
  if (bytes.length < PREAMBLE || MAGIC.some((b, i) => bytes[i] !== b))
    return { ok: false, error: "delta is corrupt (not an agent-memory delta)" };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(4, true);
  if (version !== DELTA_VERSION)
    return { ok: false, error: `delta has version ${version}, expected ${DELTA_VERSION}` };
  const length = view.getUint32(8, true);
  if (PREAMBLE + length > bytes.length)
    return { ok: false, error: "delta is corrupt (truncated header)" };
  if (hashBytes(bytes, PREAMBLE, PREAMBLE + length) !== view.getInt32(12, true))
    return { ok: false, error: "delta is corrupt (header checksum mismatch)" };
  let head: unknown;
  try {
    head = JSON.parse(new TextDecoder().decode(bytes.subarray(PREAMBLE, PREAMBLE + length)));
  } catch {
    return { ok: false, error: "delta is corrupt (header is not JSON)" };
  }
  const h = head as Record<string, unknown> | null;
  if (typeof h !== "object" || h === null || h.format !== FORMAT)
    return { ok: false, error: "delta is corrupt (not an agent-memory delta)" };
  if (h.index !== indexVersion)
    return { ok: false, error: `delta follows index format ${String(h.index)}` };
  if (h.key !== key)
    return { ok: false, error: "delta was saved with other settings or another tokenizer" };
  if (h.base !== base) return { ok: false, error: "delta follows another saved index" };
  return { ok: true, value: PREAMBLE + length };
}

function parseRecord(text: string): DeltaRecord | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const r = raw as Record<string, unknown> | null;
  if (typeof r !== "object" || r === null) return null;
  const notes = r.notes;
  const removed = r.removed;
  const pairs = r.pairs as Record<string, unknown> | null | undefined;
  if (
    !Array.isArray(notes) ||
    !Array.isArray(removed) ||
    !removed.every((p) => typeof p === "string") ||
    typeof pairs !== "object" ||
    pairs === null ||
    typeof pairs.data !== "string" ||
    !Array.isArray(pairs.sizes) ||
    pairs.sizes.length !== notes.length ||
    !pairs.sizes.every((n) => Number.isInteger(n) && (n as number) >= -1)
  )
    return null;
  let filters: (Uint32Array | undefined)[];
  try {
    filters = decodeFilters(pairs.sizes as number[], pairs.data);
  } catch {
    return null;
  }
  const out: DeltaNote[] = [];
  for (const [i, n] of (notes as unknown[]).entries()) {
    const note = n as Record<string, unknown> | null;
    if (typeof note !== "object" || note === null || !isMeta(note.meta)) return null;
    const doc = note.doc;
    if (
      !Array.isArray(doc) ||
      doc.length !== INDEX_FIELDS.length ||
      !doc.every((t) => typeof t === "string")
    )
      return null;
    const fields = Object.fromEntries(INDEX_FIELDS.map((f, k) => [f, doc[k] as string]));
    const entry: DeltaNote = {
      meta: note.meta,
      doc: { id: note.meta.path, ...fields } as IndexDoc,
    };
    const filter = filters[i];
    if (filter) entry.pairs = filter;
    out.push(entry);
  }
  return { notes: out, removed };
}
