/**
 * `agent-memory promote <vault> <note or note#^block> --area AREA [--yes] [--json]`
 * (docs/inbox.md): a person copies a note or a callout into the library. Without `--yes` it
 * prints the plan (source, destination, exactly what will be written) and writes nothing.
 * Exit 0 done (or planned); 2 bad input (an isolated zone, a bad area, no such note or callout),
 * with nothing written.
 */
import type { CliCommand } from "../command";
import { UsageError } from "../../core/errors";
import { localTimestamp, today as todayOf } from "../../core/util/dates";
import { applyPromotion, planPromotion, promotionPlanLines } from "../../core/library/promote";
import { requireMemoryRoot, toVaultPath } from "../../node/context";

export const promoteCommand: CliCommand = {
  name: "promote",
  usage: "promote <vault> <note or note#^block> --area AREA [--yes] [--json]",
  options: { area: { type: "string" }, yes: { type: "boolean" } },
  positionals: { min: 1, max: 1 },
  async run(ctx, args, options) {
    await requireMemoryRoot(ctx);
    const area = options.area;
    if (typeof area !== "string")
      throw new UsageError("promote needs --area AREA (a folder of the library)");
    const raw = args[0] ?? "";
    // A path given from the shell (relative to the vault, or absolute inside it); a link as written.
    const target = /^\[\[/.test(raw.trim())
      ? raw
      : (() => {
          const hash = raw.indexOf("#");
          const note = hash < 0 ? raw : raw.slice(0, hash);
          return toVaultPath(ctx, note) + (hash < 0 ? "" : raw.slice(hash));
        })();
    const now = new Date();
    const date = todayOf(now);
    const timestamp = localTimestamp(now);
    const plan = await planPromotion(ctx.vault, ctx.layout, {
      target,
      area,
      date,
      timestamp,
      realPath: (p) => ctx.vault.realVaultPath(p),
    });
    const apply = options.yes === true;
    const writes = apply ? await applyPromotion(ctx.vault, plan, timestamp) : [];
    if (options.json) {
      ctx.out(JSON.stringify({ ...plan, applied: apply, writes }, null, 2));
      return 0;
    }
    for (const line of promotionPlanLines(plan)) ctx.out(line);
    if (!apply && !plan.already) ctx.out("plan only: run again with --yes to write it");
    else if (!apply) ctx.out("run again with --yes to add a missing link in the source");
    if (apply) ctx.out(writes.length > 0 ? `wrote ${writes.join(", ")}` : "nothing to write");
    return 0;
  },
};
