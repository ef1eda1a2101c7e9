import { unreadableLine, VaultError } from "../../core/errors";
import { promises as fs } from "node:fs";
import type { CliCommand } from "../command";
import { emptyZones } from "../../core/search/scope";
import { indexFileOf } from "../../node/index-store";
import { cliSearchService, rebuiltLine } from "../shared";
import { cliEmbeddingsClient, FileVectorFiles } from "../../node/embeddings-env";
import { embedIndex, type EmbedReport } from "../../core/semantic/embed-index";

function ms(n: number): number {
  return Math.round(n * 10) / 10;
}

/**
 * `agent-memory index <vault> [--rebuild] [--json]` (docs/architecture.md, "The CLI contract"):
 * reloads the saved index and re-indexes what changed (or, with `--rebuild`, builds it from
 * scratch), then prints the counts, the load and build times and the index size. A corrupt or
 * outdated saved index is rebuilt with a message on stderr. Notes over the size cap and notes whose
 * frontmatter does not parse are listed.
 */
export const indexCommand: CliCommand = {
  name: "index",
  usage: "index <vault> [--rebuild] [--json]",
  options: { rebuild: { type: "boolean" } },
  positionals: { min: 0, max: 0 },
  async run(ctx, _args, options) {
    const file = indexFileOf(ctx.vault);
    // Block vectors, when an embeddings endpoint is configured (docs/architecture.md, "Semantic
    // recall"); a setting that cannot be used stops the run before anything is written.
    const client = cliEmbeddingsClient(ctx, "index");
    const service = cliSearchService(ctx);
    const report = options.rebuild ? await service.rebuild() : await service.open();
    // Saving is what `index` is for: a save that failed is this command's failure, said in one line
    // (the unreadable saved index that came before it is most often the same cause).
    if (report.saveError) throw new VaultError(report.saveError, file);
    if (report.rebuildReason) ctx.err(rebuiltLine(report.rebuildReason));
    const stats = service.stats();
    let embedded: EmbedReport | null = null;
    if (client) {
      let shown = -1;
      embedded = await embedIndex({
        notes: service.notes(),
        vault: ctx.vault,
        client,
        files: new FileVectorFiles(ctx.vault),
        settings: ctx.settings.embeddings,
        rebuild: options.rebuild === true,
        onReset: (reason) => ctx.err(`index: ${reason}`),
        onProgress: (done, total) => {
          // One line per tenth, and the last: a log, not a redrawn bar.
          const tenth = total === 0 ? 10 : Math.floor((done * 10) / total);
          if (total > 0 && (tenth > shown || done === total)) {
            shown = tenth;
            ctx.err(`index: embedding blocks ${done}/${total} (model ${client.model})`);
          }
        },
      });
    }
    const indexBytes = await fs.stat(file).then(
      (st) => st.size,
      () => null,
    );
    const summary = {
      notes: stats.notes,
      source: report.source,
      ...(report.rebuildReason ? { rebuild_reason: report.rebuildReason } : {}),
      indexed: report.indexed,
      removed: report.removed,
      load_ms: ms(report.loadMs),
      sync_ms: ms(report.syncMs),
      save_ms: ms(report.saveMs),
      index_bytes: indexBytes,
      index_file: file,
      collections: stats.collections,
      zones: stats.zones,
      terms: stats.terms,
      capped: stats.capped,
      frontmatter_errors: stats.frontmatterErrors,
      unreadable: report.unreadable,
      ...(embedded
        ? {
            embeddings: {
              model: embedded.model,
              dims: embedded.dims,
              notes: embedded.notes,
              blocks: embedded.blocks,
              sent: embedded.sent,
              tokens: embedded.tokens,
              estimated_usage: embedded.estimatedUsage,
              requests: embedded.requests,
              ...(embedded.costUsd !== undefined ? { cost_usd: embedded.costUsd } : {}),
              wall_ms: embedded.wallMs,
              vectors: embedded.vectors,
              vector_bytes: embedded.vectorBytes,
              zones_left_out: embedded.zonesLeftOut,
            },
          }
        : {}),
    };
    // A zone that holds nothing is most often a misspelt folder, which isolates nothing.
    for (const zone of emptyZones(ctx.layout.settings.isolatedZones, stats.zones)) {
      ctx.err(
        `index: isolated zone "${zone}" holds no notes (folder ${ctx.layout.zoneRoot(zone)}/); check the isolatedZones setting`,
      );
    }
    // Notes left out make the run's exit code 1 with or without --json (docs/architecture.md,
    // "The CLI contract": 1 is "ran and found problems"); the JSON lists them under `unreadable`.
    const code = report.unreadable.length > 0 ? 1 : 0;
    if (options.json) {
      ctx.out(JSON.stringify(summary, null, 2));
      return code;
    }
    const how =
      report.source === "saved"
        ? `loaded in ${summary.load_ms} ms, ${report.indexed} re-indexed and ${report.removed} removed in ${summary.sync_ms} ms`
        : `built in ${summary.sync_ms} ms`;
    ctx.out(`${stats.notes} note${stats.notes === 1 ? "" : "s"} indexed (${how})`);
    const parts = Object.entries(stats.collections).map(([k, v]) => `${k} ${v}`);
    for (const [zone, n] of Object.entries(stats.zones)) parts.push(`zone ${zone} ${n}`);
    if (parts.length > 0) ctx.out(`  ${parts.join(", ")}`);
    ctx.out(
      `  ${stats.terms} terms; index ${indexBytes !== null ? `${(indexBytes / 1024).toFixed(0)} KB` : "not saved"} at ${file}`,
    );
    if (embedded) {
      const e = embedded;
      const cost = e.costUsd !== undefined ? `, $${e.costUsd.toFixed(4)}` : "";
      ctx.out(
        `  vectors: ${e.blocks} blocks of ${e.notes} notes (model ${e.model}, ${e.dims} dims, ${(e.vectorBytes / 1024).toFixed(0)} KB); ${e.sent} sent in ${e.requests} request${e.requests === 1 ? "" : "s"}, ${e.estimatedUsage ? "about " : ""}${e.tokens} tokens${cost}`,
      );
      for (const [zone, n] of Object.entries(e.zonesLeftOut))
        ctx.out(
          `  zone ${zone}: ${n} note${n === 1 ? "" : "s"} not embedded (list the zone in the setting embeddings.zones to allow it)`,
        );
    }
    if (stats.capped.length > 0) {
      ctx.out(
        `  ${stats.capped.length} note(s) over the size cap, indexed by frontmatter and headings only:`,
      );
      for (const p of stats.capped) ctx.out(`    ${p}`);
    }
    if (stats.frontmatterErrors.length > 0) {
      ctx.out(
        `  ${stats.frontmatterErrors.length} note(s) indexed by body only, frontmatter does not parse (see health):`,
      );
      for (const e of stats.frontmatterErrors) ctx.out(`    ${e.path}`);
    }
    for (const u of report.unreadable) ctx.err(`index: left out ${unreadableLine(u)}`);
    return code;
  },
};
