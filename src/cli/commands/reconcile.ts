/**
 * `agent-memory reconcile <vault> [--dry-run] [--json]` (docs/sync.md, "Reconcile"): after a
 * line-union merge or a file-sync tool, folds tracker lines that share an id into one item and
 * merges each sync tool's conflict copy into its note, then moves the copy to
 * `.agent-memory/conflict-copies/` (kept, never deleted). The rules are the merge driver's
 * (`src/core/sync/merge.ts`); every write goes through the vault port. Exit 0 done (also when
 * there was nothing to do), 2 on bad input (nothing written).
 */
import type { CliCommand } from "../command";
import { UsageError } from "../../core/errors";
import { mergeNote, type MergeChoice } from "../../core/sync/merge";
import {
  CONFLICT_COPY_DIR,
  conflictCopyTarget,
  foldDuplicateItems,
  noteShape,
} from "../../core/sync/reconcile";

interface ReconcileReport {
  dry_run: boolean;
  /** Conflict copies merged into their note and where each copy is kept now. */
  copies: { copy: string; note: string; kept_at: string }[];
  /** Ids folded, per note. */
  folded: { path: string; id: string; lines: number }[];
  /** Values that differed (`Merge: kept … over …` lines written under the items). */
  choices: (MergeChoice & { path: string })[];
}

export const reconcileCommand: CliCommand = {
  name: "reconcile",
  usage: "reconcile <vault> [--dry-run] [--json]",
  options: { "dry-run": { type: "boolean" } },
  positionals: { min: 0, max: 0 },
  async run(ctx, _args, options) {
    const dryRun = options["dry-run"] === true;
    const root = ctx.layout.settings.memoryRoot;
    const report: ReconcileReport = { dry_run: dryRun, copies: [], folded: [], choices: [] };
    const listed = (await ctx.vault.list(root)).map((f) => f.path).sort();
    const copies = listed.filter((p) => conflictCopyTarget(p) !== null);
    if (copies.length && !dryRun && !ctx.vault.move)
      throw new UsageError("this host cannot move files: conflict copies are left in place");
    const taken = new Set<string>();
    for (const copy of copies) {
      const note = conflictCopyTarget(copy) ?? copy;
      const shape = noteShape(ctx.layout, note);
      const copyText = await ctx.vault.read(copy);
      const edit = (cur: string | null) => {
        const merged =
          cur === null ? { text: copyText, choices: [] } : mergeNote(null, cur, copyText, shape);
        const fold = shape === "tracker" ? foldDuplicateItems(merged.text) : null;
        return {
          content: fold ? fold.text : merged.text,
          result: [...merged.choices, ...(fold?.choices ?? [])],
        };
      };
      let keptAt = `${CONFLICT_COPY_DIR}/${copy}`;
      for (let n = 2; taken.has(keptAt) || (await ctx.vault.exists(keptAt)); n++)
        keptAt = `${CONFLICT_COPY_DIR}/${copy.replace(/\.md$/i, "")}.${n}.md`;
      taken.add(keptAt);
      let choices: MergeChoice[];
      if (dryRun) {
        const cur = (await ctx.vault.exists(note)) ? await ctx.vault.read(note) : null;
        choices = edit(cur).result;
      } else {
        choices = (await ctx.vault.process(note, edit)).result;
        await ctx.vault.move?.(copy, keptAt);
      }
      report.copies.push({ copy, note, kept_at: keptAt });
      report.choices.push(...choices.map((c) => ({ ...c, path: note })));
    }
    const notes = new Set(listed.filter((p) => conflictCopyTarget(p) === null));
    for (const c of report.copies) notes.add(c.note);
    for (const path of [...notes].sort()) {
      if (noteShape(ctx.layout, path) !== "tracker") continue;
      const fold = (cur: string | null) => {
        const r = cur === null ? null : foldDuplicateItems(cur);
        return { content: r ? r.text : cur, result: r };
      };
      let r;
      if (dryRun)
        r = (await ctx.vault.exists(path)) ? fold(await ctx.vault.read(path)).result : null;
      else r = (await ctx.vault.process(path, fold)).result;
      if (!r) continue;
      for (const f of r.folded) report.folded.push({ path, ...f });
      report.choices.push(...r.choices.map((c) => ({ ...c, path })));
    }
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
