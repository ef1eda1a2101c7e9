/**
 * `agent-memory reconcile <vault> [--dry-run] [--json]` (docs/sync.md, "Reconcile"): after a
 * line-union merge or a file-sync tool, folds tracker lines that share an id into one item and
 * merges each sync tool's conflict copy into its note, then moves the copy to
 * `.agent-memory/conflict-copies/` (kept, never deleted), by `reconcileVault`
 * (`src/core/sync/reconcile-vault.ts`, shared with the MCP server and the plugin). Exit 0 done (also when
 * there was nothing to do), 2 on bad input (nothing written).
 */
import type { CliCommand } from "../command";
import { reconcileVault } from "../../core/sync/reconcile-vault";

export const reconcileCommand: CliCommand = {
  name: "reconcile",
  usage: "reconcile <vault> [--dry-run] [--json]",
  options: { "dry-run": { type: "boolean" } },
  positionals: { min: 0, max: 0 },
  async run(ctx, _args, options) {
    const dryRun = options["dry-run"] === true;
    const report = await reconcileVault(ctx.vault, ctx.layout, { dryRun });
    if (options.json) {
      ctx.out(JSON.stringify(report, null, 2));
      return 0;
    }
    const verb = dryRun ? "would " : "";
    for (const c of report.copies)
      ctx.out(`${verb}merge ${c.copy} into ${c.note}; ${verb}keep the copy at ${c.kept_at}`);
    for (const f of report.folded)
      ctx.out(`${verb}fold ${f.lines} lines of ^${f.id} in ${f.path} into one item`);
    for (const c of report.choices)
      ctx.out(`  ${c.path} ${c.where} ${c.what}: kept "${c.kept}" over "${c.setAside}"`);
    if (!report.copies.length && !report.folded.length)
      ctx.out("nothing to reconcile: no duplicated id, no conflict copy");
    return 0;
  },
};
