/**
 * `agent-memory migrate <vault> [--apply] [--json]`
 * (docs/decisions.md, "Tracker line order follows Tasks' reader"): rewrites tracker lines written
 * before the current line format (README "Tracker line format") into it. A dry run unless
 * `--apply`: it lists each line it would change, before and after, and writes nothing. With
 * `--apply` each tracker note is rewritten through the vault's locked, atomic `process`, only the
 * lines listed change. Exit 0 done (nothing to do, or applied); 1 a dry run that found lines to
 * change, or a note left as it is (frontmatter that does not parse, an item that lost its id).
 */
import type { CliCommand } from "../command";
import { migrateTrackers } from "../../core/trackers/migrate";

export const migrateCommand: CliCommand = {
  name: "migrate",
  usage: "migrate <vault> [--apply] [--json]",
  options: { apply: { type: "boolean" } },
  positionals: { min: 0, max: 0 },
  async run(ctx, _args, options) {
    const apply = options.apply === true;
    const notes = await migrateTrackers(ctx.vault, ctx.layout, { apply });
    const lines = notes.reduce((n, note) => n + note.changes.length, 0);
    const problems = notes.filter((n) => n.skipped !== null || n.lostIds.length > 0);
    if (options.json) {
      ctx.out(
        JSON.stringify(
          {
            applied: apply,
            notes: notes.filter(
              (n) => n.changes.length > 0 || n.skipped !== null || n.lostIds.length > 0,
            ),
            lines,
          },
          null,
          2,
        ),
      );
    } else {
      for (const note of notes) {
        if (note.changes.length === 0 && note.skipped === null && note.lostIds.length === 0)
          continue;
        ctx.out(note.path);
        if (note.skipped !== null) ctx.out(`  left as it is: ${note.skipped}`);
        for (const c of note.changes) {
          ctx.out(`  line ${c.line}`);
          ctx.out(`    - ${c.before}`);
          ctx.out(`    + ${c.after}`);
        }
        for (const line of note.lostIds) {
          ctx.out(
            `  line ${line}: the item lost its block id (a Dataview completion rewrite); add its ^id back by hand`,
          );
        }
      }
      const noteCount = notes.filter((n) => n.changes.length > 0).length;
      if (lines === 0)
        ctx.out(`tracker lines are in the current format (${notes.length} tracker notes checked)`);
      else if (apply)
        ctx.out(
          `rewrote ${lines} line${lines === 1 ? "" : "s"} in ${noteCount} tracker note${noteCount === 1 ? "" : "s"}`,
        );
      else
        ctx.out(
          `${lines} line${lines === 1 ? "" : "s"} in ${noteCount} tracker note${noteCount === 1 ? "" : "s"} would change; run again with --apply to write them`,
        );
    }
    return problems.length > 0 || (!apply && lines > 0) ? 1 : 0;
  },
};
