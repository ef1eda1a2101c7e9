/**
 * `reconcile` over a vault (docs/sync.md, "Reconcile"), shared by the CLI command, the MCP server's
 * watcher and the plugin's vault events: each sync tool's conflict copy under the memory root is
 * merged into its note by the merge driver's rules and moved to `.agent-memory/conflict-copies/`
 * (kept, never deleted); then tracker lines that share an id are folded into one item. Every write
 * is a {@link VaultPort.process}; the rules are pure (`./merge.ts`, `./reconcile.ts`).
 */
import { UsageError } from "../errors";
import type { MemoryLayout } from "../layout";
import type { VaultPort } from "../vault";
import { mergeNote, type MergeChoice } from "./merge";
import {
  CONFLICT_COPY_DIR,
  conflictCopyTarget,
  foldDuplicateItems,
  hasDuplicateItemIds,
  noteShape,
} from "./reconcile";

/** What {@link reconcileVault} did (or, with `dryRun`, would do). */
export interface ReconcileReport {
  dry_run: boolean;
  /** Conflict copies merged into their note and where each copy is kept now. */
  copies: { copy: string; note: string; kept_at: string }[];
  /** Ids folded, per note. */
  folded: { path: string; id: string; lines: number }[];
  /** Values that differed (`Merge: kept … over …` lines written under the items). */
  choices: (MergeChoice & { path: string })[];
}

/** Times a conflict copy that changed while it was merged is merged again before it is moved. */
const COPY_ROUNDS = 4;

/**
 * Reconciles every note under the memory root. With `dryRun` nothing is written. Throws
 * {@link UsageError} (nothing written) when a conflict copy is found and `vault` cannot move
 * files; I/O failures throw the vault's errors.
 */
export async function reconcileVault(
  vault: VaultPort,
  layout: MemoryLayout,
  options: { dryRun?: boolean } = {},
): Promise<ReconcileReport> {
  const dryRun = options.dryRun === true;
  const report: ReconcileReport = { dry_run: dryRun, copies: [], folded: [], choices: [] };
  const listed = (await vault.list(layout.settings.memoryRoot)).map((f) => f.path).sort();
  const copies = listed.filter((p) => conflictCopyTarget(p) !== null);
  if (copies.length && !dryRun && !vault.move)
    throw new UsageError("this host cannot move files: conflict copies are left in place");
  const taken = new Set<string>();
  for (const copy of copies) {
    const note = conflictCopyTarget(copy) ?? copy;
    const shape = noteShape(layout, note);
    let copyText = await vault.read(copy);
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
    for (let n = 2; taken.has(keptAt) || (await vault.exists(keptAt)); n++)
      keptAt = `${CONFLICT_COPY_DIR}/${copy.replace(/\.md$/i, "")}.${n}.md`;
    taken.add(keptAt);
    let choices: MergeChoice[];
    if (dryRun) {
      const cur = (await vault.exists(note)) ? await vault.read(note) : null;
      choices = edit(cur).result;
    } else {
      choices = (await vault.process(note, edit)).result;
      // A copy still being written when it was read (a sync tool writing it in place, the watcher
      // told of it at its creation) is merged again as it reads now, before it is moved away
      // (test/core/sync/reconcile-vault.test.ts).
      for (let round = 0; round < COPY_ROUNDS; round++) {
        const now = await vault.read(copy);
        if (now === copyText) break;
        copyText = now;
        choices = (await vault.process(note, edit)).result;
      }
      await vault.move?.(copy, keptAt);
    }
    report.copies.push({ copy, note, kept_at: keptAt });
    report.choices.push(...choices.map((c) => ({ ...c, path: note })));
  }
  const notes = new Set(listed.filter((p) => conflictCopyTarget(p) === null));
  for (const c of report.copies) notes.add(c.note);
  for (const path of [...notes].sort()) {
    if (noteShape(layout, path) !== "tracker") continue;
    const fold = (cur: string | null) => {
      const r = cur === null ? null : foldDuplicateItems(cur);
      return { content: r ? r.text : cur, result: r };
    };
    let r;
    if (dryRun) r = (await vault.exists(path)) ? fold(await vault.read(path)).result : null;
    else r = (await vault.process(path, fold)).result;
    if (!r) continue;
    for (const f of r.folded) report.folded.push({ path, ...f });
    report.choices.push(...r.choices.map((c) => ({ ...c, path })));
  }
  return report;
}

/**
 * Whether a note that changed under a host calls for {@link reconcileVault}: it is a sync tool's
 * conflict copy under the memory root, or a tracker note (`text`, when it could be read) where two
 * item lines share a block id. Cheap enough to run at every change.
 */
export function needsReconcile(layout: MemoryLayout, path: string, text: string | null): boolean {
  if (!layout.isInside(path) || path.split("/").some((s) => s.startsWith("."))) return false;
  if (conflictCopyTarget(path) !== null) return true;
  if (text === null || noteShape(layout, path) !== "tracker") return false;
  return hasDuplicateItemIds(text);
}

/** One line saying what {@link reconcileVault} did, for a host's log or notice; `null` when nothing. */
export function reconcileSummary(report: ReconcileReport): string | null {
  const parts: string[] = [];
  if (report.copies.length)
    parts.push(
      `merged ${report.copies.map((c) => `${c.copy} into ${c.note}`).join(", ")} (copies kept in ${CONFLICT_COPY_DIR}/)`,
    );
  if (report.folded.length)
    parts.push(
      `folded duplicated ids ${report.folded.map((f) => `^${f.id} in ${f.path}`).join(", ")}`,
    );
  return parts.length ? `reconciled: ${parts.join("; ")}` : null;
}

/**
 * Reconciles when a host sees a note change under it (docs/sync.md, "Reconcile"): the MCP server
 * calls {@link changed} from its watcher, the plugin from its vault events. Runs
 * {@link reconcileVault} when {@link needsReconcile} says so, one run at a time; a change seen
 * during a run is checked after it. Its own writes come back as changes and find nothing to do.
 */
export class ReconcileOnChange {
  private running: Promise<void> = Promise.resolve();

  /**
   * @param layout the layout in force, asked at each change (the plugin's follows its settings)
   * @param report called with each run that did something (a summary line for a log or notice)
   * @param failed called with a run's error and the note whose change started it (nothing is
   *   thrown to the host's event loop)
   */
  constructor(
    private readonly vault: VaultPort,
    private readonly layout: () => MemoryLayout,
    private readonly report: (summary: string, done: ReconcileReport) => void,
    private readonly failed: (err: unknown, path: string) => void,
  ) {}

  /** A note at `path` (vault path) was created or changed. Resolves when it has been handled. */
  changed(path: string): Promise<void> {
    this.running = this.running.then(() => this.check(path));
    return this.running;
  }

  /** Resolves when every change seen so far has been handled. */
  idle(): Promise<void> {
    return this.running;
  }

  private async check(path: string): Promise<void> {
    try {
      if (!path.toLowerCase().endsWith(".md")) return;
      const copy = conflictCopyTarget(path) !== null;
      const layout = this.layout();
      if (!copy && noteShape(layout, path) !== "tracker") return;
      if (!(await this.vault.exists(path))) return;
      const text = copy ? null : await this.vault.read(path);
      if (!needsReconcile(layout, path, text)) return;
      const done = await reconcileVault(this.vault, layout);
      const summary = reconcileSummary(done);
      if (summary) this.report(summary, done);
    } catch (err) {
      this.failed(err, path);
    }
  }
}
