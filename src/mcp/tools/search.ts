/**
 * `search` (docs/mcp.md, "Tools"): the CLI's query language over the live index, notes or passages,
 * by BM25, hybrid or semantic retrieval (docs/architecture.md, "Semantic recall").
 */
import { z } from "zod";
import { UsageError } from "../../core/errors";
import type { Retrieval } from "../../core/search/search-service";
import { itemStateFilter, parseQuery } from "../../core/search/query";
import {
  RETRIEVALS,
  searchPassagesWith,
  searchWith,
  type SemanticSource,
} from "../../core/semantic/hybrid";
import { READ, defineTool, noteLink, scopeFor, type ToolDeps, type ToolOutput } from "./common";

export const search = defineTool({
  name: "search",
  title: "Search memory",
  description:
    'Search memory. Query: words, "phrases", filters (type: tag: status: after: …), -word. Notes (each with a [[note#^block]] link) or passages (best blocks).',
  input: {
    query: z.string().min(1).describe('words, "phrases", filters like type:task after:2026-01-01'),
    mode: z.enum(["notes", "passages"]).optional().describe("notes (default) or best blocks"),
    scope: z
      .string()
      .optional()
      .describe("all, library, agent:NAME or a zone; default this agent's with the library"),
    retrieval: z
      .enum(RETRIEVALS)
      .optional()
      .describe("bm25, hybrid or semantic; default hybrid with embeddings set up, else bm25"),
    limit: z.number().int().min(1).max(50).optional().describe("most results, default 10"),
  },
  hints: READ,
  async run(args, deps) {
    const scope = scopeFor(deps, args.scope);
    const limit = args.limit ?? 10;
    await deps.live.settled();
    const retrieval = args.retrieval;
    const source = retrieval === "bm25" ? null : ((await deps.semantic?.()) ?? null);
    const via = retrieval ? { retrieval } : {};
    if (args.mode === "passages") return passages(deps, args.query, scope, limit, via, source);
    const found = await searchWith(
      deps.live.service,
      args.query,
      { scope, limit, blocksPerResult: 3, ...via },
      source,
      deps.ctx.err,
    );
    if (!found.ok) throw new UsageError(found.error);
    const res = found.value;
    const results = res.results
      .filter((r) => deps.access.visible(r.path))
      .map((r) => {
        const best = r.blocks.find((b) => b.id) ?? null;
        return {
          path: r.path,
          title: r.title,
          score: Math.round(r.score * 1000) / 1000,
          snippet: r.snippet,
          link: noteLink(r.path, best?.id),
          ...(r.agent ? { agent: r.agent } : {}),
          collection: r.collection,
          ...(r.date ? { date: r.date } : {}),
        };
      });
    const lines = [`${res.total} note${res.total === 1 ? "" : "s"} in scope ${res.scope}`];
    results.forEach((r, i) =>
      lines.push(
        `${i + 1}. ${r.title} ${r.link} (${r.score})`,
        `   ${r.snippet.replace(/\s+/g, " ")}`,
      ),
    );
    if (results.length === 0) lines.push(...stateHint(args.query));
    return {
      text: lines.join("\n"),
      data: {
        query: args.query,
        scope: res.scope,
        mode: "notes",
        retrieval: res.retrieval ?? "bm25",
        total: res.total,
        took_ms: res.took_ms,
        results,
      },
    };
  },
});

/** `mode: passages`: the best blocks across notes, ranked together (`SearchService.searchPassages`). */
async function passages(
  deps: ToolDeps,
  query: string,
  scope: string,
  limit: number,
  via: { retrieval?: Retrieval },
  source: SemanticSource | null,
): Promise<ToolOutput> {
  const found = await searchPassagesWith(
    deps.live.service,
    query,
    { scope, limit, ...via },
    source,
    deps.ctx.err,
  );
  if (!found.ok) throw new UsageError(found.error);
  const res = found.value;
  const results = res.results
    .filter((p) => deps.access.visible(p.path))
    .map((p) => ({
      path: p.path,
      title: p.title,
      score: Math.round(p.score * 1000) / 1000,
      snippet: p.text.length > 400 ? `${p.text.slice(0, 399)}…` : p.text,
      link: p.link,
      ...(p.blockId ? { block_id: p.blockId } : {}),
      ...(p.heading ? { heading: p.heading } : {}),
    }));
  const lines = [
    `${results.length} passage${results.length === 1 ? "" : "s"} from ${res.total} note${res.total === 1 ? "" : "s"} in scope ${res.scope}`,
  ];
  results.forEach((r, i) =>
    lines.push(`${i + 1}. ${r.link} (${r.score})`, `   ${r.snippet.replace(/\s+/g, " ")}`),
  );
  if (results.length === 0) lines.push(...stateHint(query));
  return {
    text: lines.join("\n"),
    data: {
      query,
      scope: res.scope,
      mode: "passages",
      retrieval: res.retrieval ?? "bm25",
      total: res.total,
      took_ms: res.took_ms,
      results,
    },
  };
}

/**
 * For a query whose `status:` filter names a tracker item state ({@link itemStateFilter}), the
 * line saying that it filters notes and where such items are listed; none otherwise.
 */
function stateHint(query: string): string[] {
  const parsed = parseQuery(query);
  const state = parsed.ok ? itemStateFilter(parsed.value) : null;
  return state
    ? [
        `status:${state} matches the status in a note's frontmatter (active, archived …); tracker items that are ${state}: list_trackers with status ${state}`,
      ]
    : [];
}
