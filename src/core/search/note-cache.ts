/**
 * A small least-recently-used cache of notes read at query time (blocks, their terms once counted,
 * the phrase form of the text), so repeated searches do not re-read and re-tokenize the same
 * notes. Entries are dropped when the index learns that the note changed.
 */
import { splitSearchBlocks } from "./blocks";
import { rankedBlocks, type RankedBlock } from "./block-rank";
import { phraseFields, readNote } from "./note-document";
import { textContainsPhrase } from "./engine/tokenizer";

/** What search needs of a note's text; each part is computed on first use (phrase checks need no blocks). */
export interface CachedNote {
  /** The body's blocks (only headings when the note is over the size cap). */
  blocks(): RankedBlock[];
  /**
   * True when the title, frontmatter values and body (headings instead of the body when capped)
   * hold the phrase: what `containsPhrase(phraseForm(text), phrase)` answers, without building the
   * note's phrase form (see {@link textContainsPhrase}).
   */
  hasPhrase(phrase: string): boolean;
  /**
   * 0-based line of the note file where the body starts (the lines of the frontmatter), so that
   * a block's body line plus this is its line in the file; 0 when the body is not the file's tail.
   */
  bodyLine: number;
}

/**
 * Notes a {@link NoteCache} keeps by default. Measured on the 10k-note benchmark, 512 costs no more
 * garbage collection than 64 (what is copied is each newly read note, once), and it keeps a few
 * hundred notes' blocks ready: on the 346-note Obsidian help vault, query p50 0.8 ms against 1.9 ms
 * with 64.
 */
export const NOTE_CACHE_NOTES = 512;

/** LRU of {@link CachedNote} by path. */
export class NoteCache {
  private readonly entries = new Map<string, CachedNote>();

  /** @param capacity notes kept (see {@link NOTE_CACHE_NOTES}) */
  constructor(private readonly capacity = NOTE_CACHE_NOTES) {}

  /**
   * The cached note, or builds it from `text` (the note's full text) and caches it (unless
   * `store` is false: a phrase check reads hundreds of notes that never become results, and
   * keeping them only makes work for the garbage collector). A note over the size cap (`capped`)
   * keeps only its headings, as in the index (docs/architecture.md, "The saved index").
   */
  get(
    path: string,
    title: string,
    capped: boolean,
    text: () => Promise<string>,
    store = true,
  ): Promise<CachedNote> {
    const hit = this.entries.get(path);
    if (hit) {
      this.entries.delete(path);
      this.entries.set(path, hit);
      return Promise.resolve(hit);
    }
    return text().then((t) => {
      const { body, data } = readNote(t, path);
      let blocks: RankedBlock[] | null = null;
      const note: CachedNote = {
        blocks: () => {
          if (blocks === null) {
            const all = splitSearchBlocks(body);
            blocks = rankedBlocks(capped ? all.filter((b) => b.heading) : all);
          }
          return blocks;
        },
        hasPhrase: (phrase) => textContainsPhrase(searchable(), phrase),
        bodyLine: t.endsWith(body) ? lineCount(t, t.length - body.length) : 0,
      };
      // The text the note's phrase filter was built from (see buildNoteDocument): title, frontmatter
      // values, body (headings only when capped).
      const fields = phraseFields(data);
      const searchable = (): string =>
        capped
          ? [title, fields, ...note.blocks().map((b) => b.block.text)].join("\n")
          : `${title}\n${fields}\n${body}`;
      if (store) this.put(path, note);
      return note;
    });
  }

  /** Caches a note built by {@link NoteCache.get} without storing it. */
  put(path: string, note: CachedNote): void {
    this.entries.delete(path);
    this.entries.set(path, note);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  /** Forgets a note (it changed, moved or was deleted). */
  drop(path: string): void {
    this.entries.delete(path);
  }

  /** Forgets every note (the index was rebuilt or reloaded). */
  clear(): void {
    this.entries.clear();
  }
}

/** Line breaks in `text` before index `end`. */
function lineCount(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < end; i = text.indexOf("\n", i + 1)) n++;
  return n;
}
