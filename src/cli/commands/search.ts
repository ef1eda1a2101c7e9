import type { CliCommand } from "../command";
import type { CliContext } from "../../node/context";
import { UsageError } from "../../core/errors";
import { shellWord } from "../../core/brief";
import {
  totalPrefix,
  type PassageResponse,
  type SearchService,
} from "../../core/search/search-service";
import { formatWikilink } from "../../core/markdown/wikilinks";
import { openSearch, positiveOption } from "../shared";
import { cliSemanticSource, oneFallbackLine } from "../../node/embeddings-env";
import { shownVault } from "../../node/vault-arg";
import {
  RETRIEVALS,
  searchPassagesWith,
  searchWith,
  type SemanticSource,
} from "../../core/semantic/hybrid";
import type { Retrieval } from "../../core/search/search-service";
import { itemStateFilter, parseQuery } from "../../core/search/query";

/** `--retrieval`, checked; `undefined` when not given. Throws {@link UsageError}. */
function retrievalOption(value: unknown): Retrieval | undefined {
  if (value === undefined) return undefined;
  const found = RETRIEVALS.find((r) => r === value);
  if (!found)
    throw new UsageError(`--retrieval must be one of ${RETRIEVALS.join(", ")}`, "--retrieval");
  return found;
}

function positiveInt(value: unknown, name: string, fallback: number): number {
  return positiveOption(value, name) ?? fallback;
}

/** A passage as `search --passages --json` prints it (snake case, as the rest of the CLI's JSON). */
export interface PassageJson {
  path: string;
  title: string;
  block_id: string | null;
  line: number;
  heading: string | null;
  text: string;
  score: number;
  agent: string | null;
  collection: string;
  link: string;
}

/** `search --passages --json`: the response as printed. */
export interface PassagesJson {
  query: string;
  scope: string;
  took_ms: number;
  total: number;
  total_bound?: "about" | "at-least";
  /** How it was answered: `bm25`, `hybrid` or `semantic` (docs/architecture.md, "Semantic recall"). */
  retrieval?: Retrieval;
  passages: PassageJson[];
}

/**
 * The JSON of a passage response (docs/architecture.md, "Passages"; the README's `search --passages
 * --json`).
 */
export function passagesJson(res: PassageResponse): PassagesJson {
  return {
    query: res.query,
    scope: res.scope,
    took_ms: res.took_ms,
    total: res.total,
    ...(res.totalBound ? { total_bound: res.totalBound } : {}),
    ...(res.retrieval ? { retrieval: res.retrieval } : {}),
    passages: res.results.map((p) => ({
      path: p.path,
      title: p.title,
      block_id: p.blockId,
      line: p.line,
      heading: p.heading,
      text: p.text,
      score: p.score,
      agent: p.agent,
      collection: p.collection,
      link: p.link,
    })),
  };
}

/** Says on stderr when an `agent:` scope names an agent with no indexed notes. */
function warnUnknownAgent(ctx: CliContext, service: SearchService, scope: string): void {
  // A misspelt agent is not an error (a new agent has no notes yet), but it would silently
  // search the library alone.
  const agent = /^agent:(.+)$/i.exec(scope)?.[1];
  const known = agent === undefined ? [] : service.agents();
  if (agent !== undefined && !known.includes(agent)) {
    ctx.err(
      `search: no notes of agent "${agent}" are indexed; scope ${scope} sees the library only${known.length > 0 ? ` (agents: ${known.join(", ")})` : ""}`,
    );
  }
}

/** `, hybrid` or `, semantic` after the scope in the first line; nothing for BM25 alone. */
function retrievalNote(retrieval: Retrieval | undefined): string {
  return retrieval && retrieval !== "bm25" ? `, ${retrieval}` : "";
}

/** A query as the "no results" line shows it: in single quotes when it holds double ones. */
function shownQuery(query: string): string {
  return query.includes('"') ? `'${query}'` : `"${query}"`;
}

/**
 * Prints that nothing was found (`what`: results or passages) and, when the query has a `status:`
 * filter naming a tracker item state, where such items are listed ({@link itemStateFilter}).
 */
function noResults(ctx: CliContext, what: string, query: string, scope: string): void {
  ctx.out(`no ${what} for ${shownQuery(query)} in scope ${scope}`);
  const parsed = parseQuery(query);
  const state = parsed.ok ? itemStateFilter(parsed.value) : null;
  if (state)
    ctx.out(
      `status:${state} matches the status in a note's frontmatter (active, archived …); tracker items that are ${state}: agent-memory trackers ${shellWord(shownVault(ctx.vaultArg))} --status ${state}`,
    );
}

/**
 * `search --passages N`: the N best blocks across notes, one entry each (docs/architecture.md,
 * "Passages").
 */
async function runPassages(
  ctx: CliContext,
  service: SearchService,
  query: string,
  n: number,
  scope: string,
  includeExpired: boolean,
  json: boolean,
  retrieval: Retrieval | undefined,
  source: SemanticSource | null,
  warn: (line: string) => void,
): Promise<number> {
  const outcome = await searchPassagesWith(
    service,
    query,
    { scope, limit: n, includeExpired, ...(retrieval ? { retrieval } : {}) },
    source,
    warn,
  );
  if (!outcome.ok) throw new UsageError(outcome.error);
  const res = outcome.value;
  warnUnknownAgent(ctx, service, res.scope);
  if (json) {
    ctx.out(JSON.stringify(passagesJson(res), null, 2));
    return 0;
  }
  if (res.results.length === 0) {
    noResults(ctx, "passages", res.query, res.scope);
    return 0;
  }
  const notes = `${totalPrefix(res)}${res.total} matching note${res.total === 1 ? "" : "s"}`;
  ctx.out(
    `${res.results.length} passage${res.results.length === 1 ? "" : "s"} from ${notes} in scope ${res.scope}${retrievalNote(res.retrieval)} (${res.took_ms.toFixed(1)} ms)`,
  );
  res.results.forEach((p, i) => {
    const where = [p.collection, p.agent].filter((x) => x).join(", ");
    const text = p.text.replace(/\s+/g, " ");
    ctx.out("");
    ctx.out(
      `${i + 1}. ${p.title.replace(/\s+/g, " ")}  [${where}]${p.score > 0 ? `  score ${p.score.toFixed(2)}` : ""}`,
    );
    ctx.out(`   ${p.path}:${p.line}${p.blockId ? `  ^${p.blockId}` : ""}`);
    ctx.out(`   ${text.length > 480 ? `${text.slice(0, 479)}…` : text}`);
    ctx.out(`   link: ${p.link}`);
  });
  return 0;
}

/**
 * `agent-memory search <vault> <query> [--scope all|library|agent:NAME|<zone>] [--limit N]
 * [--blocks N] [--passages N] [--include-expired] [--json]`
 * (docs/architecture.md, "The CLI contract"; docs/architecture.md, "Passages"). Several query words
 * may be given as separate
 * arguments. `--passages N` gives the N best blocks across notes instead of notes (with `--limit`
 * or `--blocks` it is a usage error). An unknown filter, a bad date or an unknown scope exits 2.
 */
export const searchCommand: CliCommand = {
  name: "search",
  usage:
    "search <vault> <query> [--scope all|library|agent:NAME|<zone>] [--limit N] [--blocks N] [--passages N] [--retrieval bm25|hybrid|semantic] [--include-expired] [--json]",
  options: {
    scope: { type: "string" },
    limit: { type: "string" },
    blocks: { type: "string" },
    passages: { type: "string" },
    retrieval: { type: "string" },
    "include-expired": { type: "boolean" },
  },
  positionals: { min: 1, max: 64 },
  dashWords: true,
  async run(ctx, args, options) {
    const query = args.join(" ").trim();
    const limit = positiveInt(options.limit, "limit", 10);
    const blocks = positiveInt(options.blocks, "blocks", 3);
    const scope = typeof options.scope === "string" ? options.scope : "all";
    const retrieval = retrievalOption(options.retrieval);
    // One line says why a search fell back to BM25, not two (a bad setting, then "none configured").
    const warn = oneFallbackLine((line) => ctx.err(line));
    if (options.passages !== undefined) {
      const n = positiveInt(options.passages, "passages", 10);
      if (options.limit !== undefined || options.blocks !== undefined)
        throw new UsageError("--passages gives blocks, not notes: leave out --limit and --blocks");
      const { service } = await openSearch(ctx);
      const source = retrieval === "bm25" ? null : await cliSemanticSource(ctx, warn);
      return runPassages(
        ctx,
        service,
        query,
        n,
        scope,
        options["include-expired"] === true,
        options.json === true,
        retrieval,
        source,
        warn,
      );
    }
    const { service } = await openSearch(ctx);
    const source = retrieval === "bm25" ? null : await cliSemanticSource(ctx, warn);
    const outcome = await searchWith(
      service,
      query,
      {
        scope,
        limit,
        blocksPerResult: blocks,
        includeExpired: options["include-expired"] === true,
        ...(retrieval ? { retrieval } : {}),
      },
      source,
      warn,
    );
    if (!outcome.ok) throw new UsageError(outcome.error);
    const res = outcome.value;
    warnUnknownAgent(ctx, service, res.scope);
    if (options.json) {
      ctx.out(
        JSON.stringify(
          {
            query: res.query,
            scope: res.scope,
            took_ms: res.took_ms,
            total: res.total,
            ...(res.totalBound ? { total_bound: res.totalBound } : {}),
            retrieval: res.retrieval ?? "bm25",
            results: res.results.map((r) => ({
              path: r.path,
              title: r.title,
              score: r.score,
              agent: r.agent,
              collection: r.collection,
              snippet: r.snippet,
              blocks: r.blocks.map((b) => ({ id: b.id, text: b.text })),
            })),
          },
          null,
          2,
        ),
      );
      return 0;
    }
    if (res.results.length === 0) {
      // A query holding double quotes is shown in single ones (`'"x"'`, not `""x""`).
      noResults(ctx, "results", res.query, res.scope);
      return 0;
    }
    ctx.out(
      `${totalPrefix(res)}${res.total} note${res.total === 1 ? "" : "s"} in scope ${res.scope}${retrievalNote(res.retrieval)} (${res.took_ms.toFixed(1)} ms)`,
    );
    res.results.forEach((r, i) => {
      const where = [r.collection, r.agent].filter((x) => x).join(", ");
      ctx.out("");
      ctx.out(
        `${i + 1}. ${r.title.replace(/\s+/g, " ")}  [${where}]${r.score > 0 ? `  score ${r.score.toFixed(2)}` : ""}`,
      );
      ctx.out(`   ${r.path}`);
      if (r.snippet) ctx.out(`   ${r.snippet}`);
      for (const b of r.blocks.slice(1)) {
        const text = b.text.replace(/\s+/g, " ");
        // The text a person reads; block ids are in --json and the link line
        // (test/cli/cli.process.test.ts, "… search prints blocks without their ids").
        ctx.out(`   · ${text.length > 160 ? `${text.slice(0, 159)}…` : text}`);
      }
      if (r.blocks[0]?.id)
        ctx.out(`   link: ${formatWikilink({ path: r.path, blockId: r.blocks[0].id })}`);
    });
    return 0;
  },
};
