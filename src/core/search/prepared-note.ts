/**
 * Notes prepared for the index ahead, so that another thread can pay for it
 * (bench/results/search.md: build 10k notes in ≤ 5 s; reading, parsing and `Intl.Segmenter` were
 * about half of the build).
 *
 * {@link prepareNote} (run where the note is read, e.g. a worker thread) parses the note into its
 * index document, metadata and phrase filter exactly as the index would, and segments each CJK run
 * of its normalised text ({@link prepareSegments}); {@link segmentMemo} (run where the note is
 * indexed) turns the segments back into the {@link SegmentMemo} the tokenizer's `CjkWords` asks
 * before segmenting. A run the memo does not know is segmented as usual, so the index's terms never
 * depend on the memo. Everything prepared is plain data, cheap to post between threads.
 */
import type { MemoryLayout } from "../layout";
import { buildNoteDocument, INDEX_FIELDS, type IndexDoc, type NoteMeta } from "./note-document";
import {
  CJK,
  normalizeText,
  SEGMENT_BATCH,
  SEGMENT_SLICE,
  segmentWords,
  type SegmentMemo,
} from "./engine/tokenizer";

/** A note ready to be added to the index: what `buildNoteDocument` gives, and its CJK segments. */
export interface PreparedNote {
  doc: IndexDoc;
  meta: NoteMeta;
  /** The phrase filter (none for a note over the size cap). */
  pairs?: Uint32Array;
  segments: PreparedSegments;
}

/**
 * Prepares the note at `path` (vault path) with text `text` and file `stat` (mtime in ms, size in
 * bytes) for the index of `layout`.
 */
export function prepareNote(
  path: string,
  text: string,
  stat: { mtime: number; size: number },
  layout: MemoryLayout,
): PreparedNote {
  const built = buildNoteDocument(path, text, stat, layout);
  // The fields the index counts: the title includes the file name; a capped note has no body.
  return { ...built, segments: prepareSegments(INDEX_FIELDS.map((f) => built.doc[f])) };
}

/** A note's CJK runs and their word-like segments. */
export interface PreparedSegments {
  /** The distinct CJK runs of two or more code units, joined by line breaks. */
  runs: string;
  /** `start, end` offsets in {@link PreparedSegments.runs} of each word-like segment, in order. */
  cuts: Uint32Array;
}

const NON_ASCII_RE = /[^\p{ASCII}]/u;
/** A run of CJK characters, as the tokenizer's scanner finds them (one class, code point by code point). */
const CJK_RUN_RE = new RegExp(`[${CJK}]+`, "gu");

/**
 * Segments the CJK runs of `texts` (a note's index fields), in the form the tokenizer sees them
 * (NFKC, lower case).
 */
export function prepareSegments(texts: readonly string[]): PreparedSegments {
  const raw = texts.join("\n");
  // ASCII holds no CJK, before or after NFKC.
  if (!NON_ASCII_RE.test(raw)) return { runs: "", cuts: new Uint32Array(0) };
  const seen = new Set<string>();
  for (const [run] of normalizeText(raw).matchAll(CJK_RUN_RE)) {
    // Longer runs are cut in slices by the tokenizer, which then does not ask the memo.
    if (run.length >= 2 && run.length < SEGMENT_SLICE) seen.add(run);
  }
  const cuts: number[] = [];
  let offset = 0;
  let batch: string[] = [];
  let length = 0;
  const segment = (): void => {
    // Segmented whole (shorter than a slice), so each run's words are its words alone.
    segmentWords(batch.join("\n"), (word, start) =>
      cuts.push(offset + start, offset + start + word.length),
    );
    offset += length + 1;
    batch = [];
    length = 0;
  };
  for (const run of seen) {
    if (length > 0 && length + 1 + run.length > SEGMENT_SLICE) segment();
    length += (length === 0 ? 0 : 1) + run.length;
    batch.push(run);
    // Batched as the tokenizer batches runs (joined by line breaks), for the segmenter's speed.
    if (length >= SEGMENT_BATCH) segment();
  }
  if (length > 0) segment();
  return { runs: [...seen].join("\n"), cuts: Uint32Array.from(cuts) };
}

/** The memo of a note's prepared segments: the words of each run {@link prepareSegments} saw. */
export function segmentMemo(prepared: PreparedSegments): SegmentMemo {
  const words = new Map<string, string[]>();
  const { runs, cuts } = prepared;
  let k = 0;
  for (let start = 0; start < runs.length;) {
    let end = runs.indexOf("\n", start);
    if (end < 0) end = runs.length;
    const list: string[] = [];
    while (k < cuts.length && (cuts[k] ?? 0) < end) {
      list.push(runs.slice(cuts[k], cuts[k + 1]));
      k += 2;
    }
    words.set(runs.slice(start, end), list);
    start = end + 1;
  }
  return (run) => words.get(run);
}
