/**
 * CJK word segmentation prepared ahead, so that another thread can pay for it (issue 4 target:
 * build 10k notes in ≤ 5 s; `Intl.Segmenter` was a quarter of the build).
 *
 * {@link prepareSegments} (run where the note is read, e.g. a worker thread) segments each CJK run
 * of a note's normalised text; {@link segmentMemo} (run where the note is indexed) turns that back
 * into the {@link SegmentMemo} the tokenizer's {@link CjkWords} asks before segmenting. A run the
 * memo does not know is segmented as usual, so the index's terms never depend on the memo.
 */
import { forEachCjkRun } from "./term-scanner";
import { normalizeText, SEGMENT_SLICE, segmentWords, type SegmentMemo } from "./tokenizer";

/** A note's CJK runs and their word-like segments; plain data, cheap to post between threads. */
export interface PreparedSegments {
  /** The distinct CJK runs of two or more code units, joined by line breaks. */
  runs: string;
  /** `start, end` offsets in {@link PreparedSegments.runs} of each word-like segment, in order. */
  cuts: Uint32Array;
}

/** Runs segmented per call, as the tokenizer batches them (joined by line breaks). */
const PREPARE_BATCH = 200;

/**
 * Segments the CJK runs of a note, in the form the tokenizer sees them (NFKC, lower case): the runs
 * of its whole text (frontmatter and body) and of its vault path (the file name is the title of a
 * note without a frontmatter title).
 */
export function prepareSegments(text: string, path = ""): PreparedSegments {
  const s = normalizeText(path === "" ? text : `${path}\n${text}`);
  const seen = new Set<string>();
  forEachCjkRun(s, (start, end) => {
    // Longer runs are cut in slices by the tokenizer, which then does not ask the memo.
    if (end - start >= 2 && end - start < SEGMENT_SLICE) seen.add(s.slice(start, end));
  });
  const cuts: number[] = [];
  let offset = 0;
  let batch: string[] = [];
  let length = 0;
  const segment = (): void => {
    // Segmented whole (shorter than a slice), so each run's words are its words alone.
    segmentWords(batch.join("\n"), (word, start) => cuts.push(offset + start, offset + start + word.length));
    offset += length + 1;
    batch = [];
    length = 0;
  };
  for (const run of seen) {
    if (length > 0 && length + 1 + run.length > SEGMENT_SLICE) segment();
    length += (length === 0 ? 0 : 1) + run.length;
    batch.push(run);
    if (length >= PREPARE_BATCH) segment();
  }
  if (length > 0) segment();
  return { runs: [...seen].join("\n"), cuts: Uint32Array.from(cuts) };
}

/** The memo of a note's prepared segments: the words of each run {@link prepareSegments} saw. */
export function segmentMemo(prepared: PreparedSegments): SegmentMemo {
  const words = new Map<string, string[]>();
  const { runs, cuts } = prepared;
  let k = 0;
  for (let start = 0; start < runs.length; ) {
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
