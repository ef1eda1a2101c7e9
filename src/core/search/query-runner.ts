/**
 * Running one search over one shard (docs/architecture.md, "A search"): filter-only listings newest
 * first, and BM25 ranking with phrases checked against the notes' text, best blocks and snippets.
 */
import type { Settings } from "../settings";
import { scanInlineFields } from "../trackers/format";
import type { BlockScorer, RankedBlock } from "./block-rank";
import type { SearchEngine } from "./engine/search-engine";
import type { CachedNote } from "./note-cache";
import type { IndexDoc, NoteMeta } from "./note-document";
import { filterMayHold, judgesPhrase, phrasePairs } from "./engine/phrase-filter";
import type { ParsedQuery } from "./query";
import { MAX_RANK_FACTOR, blockRankFactor, rankFactor } from "./ranking";
import type { BlockHit, SearchHit, SearchResponse } from "./search-types";
import { normalizeText, textContainsPhrase } from "./engine/tokenizer";
import { FIELD_KEYS } from "../trackers/fields";

/**
 * Phrase queries read at most this many candidates (notes holding the phrase's required terms
 * whose phrase filters pass), best first, to find `limit` notes holding the phrase. It was 200,
 * and a phrase of three words, or a CJK phrase (neither filtered as well as two words), was missed
 * in a note ranked below 200 notes holding its words apart (fresh-user finding). Reading 2,000
 * small notes takes about 0.1–0.2 s; past that, `total` is a lower bound.
 */
const PHRASE_CHECK_LIMIT = 2000;
/** Snippet length, characters. */
const SNIPPET_CHARS = 240;
/** Notes read at once while checking phrases. */
const READ_CONCURRENCY = 16;

/**
 * One index shard: the MiniSearch index, and the stored metadata and phrase filter (see
 * engine/phrase-filter.ts) of its notes, by path.
 */
export interface Shard {
  mini: SearchEngine<IndexDoc>;
  metas: Map<string, NoteMeta>;
  /** Word-pair filters; a note without one (over the size cap) is read to check a phrase. */
  pairs: Map<string, Uint32Array>;
  /**
   * Metadata by the index's short id, filled as queries ask (a short id is never reused, so an
   * entry stays right for as long as its document is indexed).
   */
  byShortId?: (NoteMeta | undefined)[];
  /**
   * Bumped by {@link touchShard} on every change to `metas`, so that what is worked out from the
   * notes' metadata (the vector search's metadata per block table note) can be kept until the next change.
   */
  version?: number;
}

/**
 * False when the phrase filter of the note at `path` shows it cannot hold the quoted phrases whose
 * word pairs are `pairs` ({@link phrasePairs}); true when it may (or has no filter): the note must
 * then be read to know.
 */
export function mayHoldPhrases(shard: Shard, path: string, pairs: readonly number[]): boolean {
  return pairs.length === 0 || filterMayHoldPhrases(shard.pairs.get(path), pairs);
}

/**
 * {@link mayHoldPhrases} given the note's phrase filter (`shard.pairs`), `undefined` when it has
 * none.
 */
export function filterMayHoldPhrases(
  filter: Uint32Array | undefined,
  pairs: readonly number[],
): boolean {
  return pairs.length === 0 || filter === undefined || filterMayHold(filter, pairs);
}

/** Marks a change to the shard's notes ({@link Shard.version}); call it on every change to `metas`. */
export function touchShard(shard: Shard): void {
  shard.version = (shard.version ?? 0) + 1;
}

/** What a search run needs from the service. */
export interface RunContext {
  shard: Shard;
  /** Scope, filters and expiry. */
  visible: (meta: NoteMeta | undefined) => meta is NoteMeta;
  /**
   * {@link RunContext.visible} in two parts, for a caller asking of every note: `lasting` (scope
   * and filters), a function of the note's metadata alone, the same for every query of the same
   * `key`; and `expired`, which depends on the clock. `visible(m)` is
   * `m !== undefined && lasting(m) && !expired(m)`.
   */
  visibility: {
    key: string;
    lasting: (meta: NoteMeta) => boolean;
    expired: (meta: NoteMeta) => boolean;
  };
  /**
   * The note's blocks and text, from the note cache; `null` when it cannot be read. With `store`
   * false a note read now is not added to the cache (see {@link RunContext.remember}).
   */
  read: (meta: NoteMeta, store?: boolean) => Promise<CachedNote | null>;
  /** Adds a note read with `store` false to the cache. */
  remember: (meta: NoteMeta, note: CachedNote) => void;
}

interface Candidate {
  meta: NoteMeta;
  score: number;
}

/**
 * The visible notes, newest first, then by path (a query of filters alone,
 * docs/architecture.md, "A search").
 */
export function notesByDate(ctx: Pick<RunContext, "shard" | "visible">): NoteMeta[] {
  const matches: NoteMeta[] = [];
  for (const meta of ctx.shard.metas.values()) if (ctx.visible(meta)) matches.push(meta);
  matches.sort((a, b) => {
    const da = a.date ?? "";
    const db = b.date ?? "";
    if (da !== db) return da < db ? 1 : -1;
    return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
  });
  return matches;
}

/**
 * Lists the visible notes newest first (a query of filters alone,
 * docs/architecture.md, "A search").
 */
export async function listByDate(
  ctx: RunContext,
  limit: number,
  response: SearchResponse,
): Promise<void> {
  const matches = notesByDate(ctx);
  response.total = matches.length;
  const shown = matches.slice(0, limit);
  const notes = await Promise.all(shown.map((meta) => ctx.read(meta)));
  shown.forEach((meta, k) => {
    const note = notes[k];
    const blocks = note?.blocks() ?? [];
    const first = blocks.find((b) => !b.block.heading) ?? blocks[0];
    response.results.push(hitOf(meta, 0, first ? clip(first.block.text, []) : "", []));
  });
}

/**
 * A note chosen by {@link chooseNotes}: its metadata, its score and its text (`null` when
 * unreadable; `undefined` when not read yet, see `read` of {@link chooseNotes}).
 */
export interface ChosenNote {
  meta: NoteMeta;
  /** BM25 score times the ranking factor. */
  score: number;
  note?: CachedNote | null;
}

/**
 * Ranks the visible notes by BM25 (field boosts, ranking factor as MiniSearch's document boost),
 * keeps those containing every quoted phrase, and returns the best `limit` of them, best first,
 * with their text; sets `response.total` (and `totalBound`). A note whose word-pair filter lacks
 * a pair of a phrase is never a candidate (see engine/phrase-filter.ts); the candidates left are read,
 * best first, until `limit` of them hold the phrases.
 * @param terms query terms (query tokenizer, stop words dropped)
 * @param required terms every note holding the phrases has (see `phraseRequiredTerms`); each is
 *   also in `terms`
 * @param opts `read: false`: without quoted phrases, the notes are not read (their `note` is left
 *   `undefined`), for a caller that shows only some of them ({@link notesWithBlocks})
 */
export async function chooseNotes(
  ctx: RunContext,
  parsed: ParsedQuery,
  terms: string[],
  required: string[],
  opts: { limit: number; search: Settings["search"]; nowMs: number; read?: boolean },
  response: Pick<SearchResponse, "total" | "totalBound">,
): Promise<ChosenNote[]> {
  const { shard } = ctx;
  // Scope, filters, expiry and the ranking factor go in as MiniSearch's document boost (searchTop
  // asks once per note and query): a note boosted 0 never becomes a result, the rest come back ranked.
  const byShortId = (shard.byShortId ??= []);
  const pairs = phrasePairs(parsed.phrases);
  const boostDocument = (key: string, shortId: number): number => {
    let meta = shortId >= 0 ? byShortId[shortId] : undefined;
    if (meta === undefined) {
      meta = shard.metas.get(key);
      if (shortId >= 0) {
        // Grown by pushes, so the array stays dense (an assignment far past its end would not).
        while (byShortId.length <= shortId) byShortId.push(undefined);
        byShortId[shortId] = meta;
      }
    }
    if (!ctx.visible(meta) || !mayHoldPhrases(shard, key, pairs)) return 0;
    return rankFactor(meta, opts.search, opts.nowMs);
  };
  // Only the best candidates are built: `limit` of them, or the most a phrase check reads.
  const keep = parsed.phrases.length > 0 ? Math.max(PHRASE_CHECK_LIMIT, opts.limit) : opts.limit;
  // The boost is at most 1 (rankFactor), so searchTop may pass over notes that cannot reach the
  // best `keep` (docs/decisions.md, "Top-k search prunes with MaxScore and block maxima").
  const ranked = shard.mini.searchTop(terms, boostDocument, keep, required, {
    maxBoost: MAX_RANK_FACTOR,
  });
  const candidates: Candidate[] = [];
  for (const r of ranked.top) {
    const meta = shard.metas.get(r.id);
    if (meta) candidates.push({ meta, score: r.score });
  }

  const chosen: ChosenNote[] = [];
  if (parsed.phrases.length > 0) {
    let total = 0;
    let read = 0;
    // Stops once `limit` notes hold the phrases: reading notes is most of a phrase query's time.
    // Candidates passed the phrase filters, so most hold the phrases: a group reads only as many as
    // are still wanted (16 at most), not a fixed 16 when 10 are wanted.
    for (let i = 0; i < candidates.length && chosen.length < opts.limit;) {
      const group = candidates.slice(i, i + Math.min(READ_CONCURRENCY, opts.limit - chosen.length));
      i += group.length;
      const notes = await Promise.all(group.map((c) => ctx.read(c.meta, false)));
      read += group.length;
      group.forEach((cand, k) => {
        const note = notes[k];
        if (!note || !parsed.phrases.every((p) => note.hasPhrase(p))) return;
        total++;
        if (chosen.length < opts.limit) {
          chosen.push({ meta: cand.meta, score: cand.score, note });
          ctx.remember(cand.meta, note);
        }
      });
    }
    // Unread candidates passed every phrase's filter: they count, as an estimate, when the filters
    // judged every phrase (see SearchResponse.total).
    const unread = Math.max(0, ranked.total - read);
    if (unread === 0) response.total = total;
    else if (parsed.phrases.every(judgesPhrase)) {
      response.total = total + unread;
      response.totalBound = "about";
    } else {
      response.total = total;
      response.totalBound = "at-least";
    }
  } else {
    response.total = ranked.total;
    if (ranked.estimated) response.totalBound = "about";
    if (opts.read === false) for (const cand of candidates) chosen.push({ ...cand });
    else {
      const notes = await Promise.all(candidates.map((c) => ctx.read(c.meta)));
      candidates.forEach((cand, k) =>
        chosen.push({ meta: cand.meta, score: cand.score, note: notes[k] ?? null }),
      );
    }
  }
  return chosen;
}

/**
 * Block scores of the chosen notes: BM25 over all their blocks ({@link BlockScorer}), each times
 * (note score / best note score)², measured on LoCoMo (bench/results/locomo.md) against plain block
 * BM25 and gentler weights, times {@link blockRankFactor} (a superseded entry ranks lower). Same
 * shape as the notes' blocks (a note not read has none).
 * @param top the best note score of the ranking the notes come from (default: the first's)
 */
export function weightedBlockScores(
  chosen: readonly ChosenNote[],
  terms: readonly string[],
  scorer: BlockScorer,
  top: number = chosen[0]?.score ?? 1,
): { blocks: RankedBlock[][]; scores: number[][] } {
  const blocks = chosen.map((c) => c.note?.blocks() ?? []);
  const raw = scorer.score(blocks, terms);
  const scores = chosen.map((c, i) => {
    // A block inherits its note's relevance.
    const weight = top > 0 ? (c.score / top) ** 2 : 1;
    const own = blocks[i] ?? [];
    return (raw[i] ?? []).map((s, j) =>
      s > 0 ? s * weight * blockRankFactor(own[j]?.block.text ?? "") : 0,
    );
  });
  return { blocks, scores };
}

/** The query's words as a snippet looks for them (longer than one character). */
export function snippetWords(parsed: ParsedQuery): string[] {
  return normalizeText([parsed.text, ...parsed.phrases].join(" "))
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1);
}

/**
 * Ranks the visible notes by BM25 (see {@link chooseNotes}) and attaches each result's best
 * blocks and a snippet; with quoted phrases, only blocks holding every phrase are listed.
 * @param terms query terms (query tokenizer, stop words dropped)
 * @param required terms every note holding the phrases has; each is also in `terms`
 */
export async function rankByText(
  ctx: RunContext,
  parsed: ParsedQuery,
  terms: string[],
  required: string[],
  opts: {
    limit: number;
    blocksPerResult: number;
    search: Settings["search"];
    nowMs: number;
    blocks: BlockScorer;
  },
  response: SearchResponse,
): Promise<void> {
  const chosen = await chooseNotes(ctx, parsed, terms, required, opts, response);
  response.results.push(...(await notesWithBlocks(ctx, chosen, parsed, terms, opts)));
}

/**
 * The search hits of chosen notes, in their order: each with its best blocks (scored together,
 * {@link weightedBlockScores}) and a snippet; with quoted phrases, only blocks holding every
 * phrase are listed. Notes not read yet are read now (through the note cache).
 * @param top the best note score of the ranking `chosen` comes from (default: the first's), so
 *   block weights do not depend on which of its notes are shown
 */
export async function notesWithBlocks(
  ctx: RunContext,
  chosen: readonly ChosenNote[],
  parsed: ParsedQuery,
  terms: string[],
  opts: { blocksPerResult: number; blocks: BlockScorer },
  top?: number,
): Promise<SearchHit[]> {
  const read = await Promise.all(
    chosen.map((c) => (c.note !== undefined ? Promise.resolve(c.note) : ctx.read(c.meta))),
  );
  const withText = chosen.map((c, i) => ({ ...c, note: read[i] ?? null }));
  const { blocks: blockSets, scores: blockScores } = weightedBlockScores(
    withText,
    terms,
    opts.blocks,
    top,
  );
  const hits: SearchHit[] = [];
  const words = snippetWords(parsed);
  // With quoted phrases, a block is listed only when it holds them all
  // (test/core/search/search-service.test.ts, "a phrase search lists only the blocks that hold the phrase …").
  const holdsPhrases = (text: string): boolean =>
    parsed.phrases.every((p) => textContainsPhrase(text, p));
  withText.forEach((cand, i) => {
    const scores = blockScores[i] ?? [];
    const blocks = (blockSets[i] ?? [])
      .map((b, k) => ({ b, score: scores[k] ?? 0 }))
      .filter((x) => x.score > 0 && holdsPhrases(x.b.block.text))
      .sort((x, y) => y.score - x.score || x.b.block.line - y.b.block.line);
    const best = blocks[0]?.b.block ?? (blockSets[i] ?? []).find((b) => !b.block.heading)?.block;
    const blockHits: BlockHit[] = blocks.slice(0, opts.blocksPerResult).map(({ b, score }) => ({
      id: b.block.id,
      text: b.block.text,
      line: b.block.line,
      score: round(score),
    }));
    hits.push(hitOf(cand.meta, round(cand.score), best ? clip(best.text, words) : "", blockHits));
  });
  return hits;
}

/** A search hit of a note with its snippet and best blocks (`score` as given, already rounded). */
export function hitOf(
  meta: NoteMeta,
  score: number,
  snippet: string,
  blocks: BlockHit[],
): SearchHit {
  const hit: SearchHit = {
    path: meta.path,
    title: meta.title,
    score,
    agent: meta.agent,
    collection: meta.collection,
    snippet,
    blocks,
  };
  if (meta.type) hit.type = meta.type;
  if (meta.status) hit.status = meta.status;
  if (meta.date) hit.date = meta.date;
  return hit;
}

/** Rounded to three decimals (scores in responses). */
export function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/** `text` without its `[source:: …]` inline fields (the field scanner of tracker lines). */
function withoutSourceFields(text: string): string {
  if (!text.includes("source::")) return text;
  let out = "";
  let at = 0;
  for (const f of scanInlineFields(text)) {
    if (f.key.trim().toLowerCase() !== FIELD_KEYS.source) continue;
    out += text.slice(at, f.start).replace(/[ \t]+$/, "");
    at = f.end;
  }
  return out + text.slice(at);
}

/** At most {@link SNIPPET_CHARS} characters of `text`, around the first query word found. */
export function clip(text: string, words: string[]): string {
  // Snippets show what a person reads: no block ids, no source links (a tracker line's provenance,
  // full of `^am-` ids;
  // test/core/search/search-service.test.ts, "a tracker line's snippet leaves out its source links …"), no
  // quote/callout markers at line starts.
  const flat = withoutSourceFields(text)
    .replace(/(^|[ \t])\^[A-Za-z0-9-]+(?=[ \t]*(?:\r?\n|$))/g, "$1")
    .replace(/^[ \t]*(?:>[ \t]?)+/gm, "")
    .replace(/\s+/g, " ")
    .trim();
  if (flat.length <= SNIPPET_CHARS) return flat;
  const lower = flat.toLowerCase();
  let at = -1;
  for (const w of words) {
    const i = lower.indexOf(w);
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  const start = Math.max(0, Math.min(at < 0 ? 0 : at - 60, flat.length - SNIPPET_CHARS));
  const body = flat.slice(start, start + SNIPPET_CHARS).trim();
  return `${start > 0 ? "…" : ""}${body}${start + SNIPPET_CHARS < flat.length ? "…" : ""}`;
}
