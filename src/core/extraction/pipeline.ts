/**
 * The extraction pipeline (docs/architecture.md, "An extraction run"): journal → blocks → extractor
 * → dedupe → plan → apply.
 *
 * {@link planExtraction} reads and writes nothing but reads; its result is plain data that the CLI
 * prints with `--dry-run` and the plugin shows in the review modal, where items may be dropped,
 * edited or re-routed. {@link applyPlan} then edits each note through `VaultPort.process`, re-checking
 * duplicates against the note's CURRENT content, so a person's edit made meanwhile is kept
 * (test/core/extraction/extraction-pipeline.test.ts, "case 07: …") and running twice adds nothing
 * (test/core/extraction/extraction-pipeline.test.ts, "case 10: …").
 */
import {
  CancelledError,
  EncodingError,
  MemoryError,
  PathError,
  TruncatedNoteError,
  UsageError,
  errorMessage,
} from "../errors";
import {
  notMappingError,
  parseNote,
  setFrontmatter,
  unclosedFrontmatterError,
} from "../frontmatter";
import {
  addBlockIds,
  blockIdSeed,
  blockPlace,
  blockUnchangedSinceId,
  existingBlockIds,
  extractedAsIs,
  extractionHash,
  newBlockId,
  splitBlocks,
} from "../journal/blocks";
import type { WantedBlockId } from "../journal/blocks";
import { knownAgents, unknownAgentError } from "../init";
import { normalizeVaultPath, type MemoryLayout } from "../layout";
import { dateTitle, localTimestamp, today } from "../util/dates";
import { isOpenStatus } from "../trackers/status";
import type { Settings } from "../settings";
import type { Decision, VaultPort } from "../vault";
import { generatedNoteKind, personWrittenPart, type GeneratedNoteKind } from "../note-types";
import { PlanReadCache } from "./plan-cache";
import { textProblem } from "../trackers/validate";
import { isSecretName, redactSecrets } from "../redact";
import { truncateLine } from "../markdown/text";
import { resolveRoute } from "./route";
import { writeItems } from "./write-item";
import type { RandomSource } from "../util/ids";
import { findConflictMarkers } from "../markdown/conflict-markers";
import { linkBreakingCharacters, noteName } from "../markdown/wikilinks";
import type {
  Checkpoint,
  ExtractedItem,
  ExtractionContext,
  ExtractionResult,
  Extractor,
  GateReport,
  PlannedItem,
  RejectedItem,
  Usage,
} from "./types";

export type { Checkpoint } from "./types";

export interface ExtractionOptions {
  vault: VaultPort;
  settings: Settings;
  layout: MemoryLayout;
  /** Vault-relative path of the journal note. */
  journalPath: string;
  /** Agent the journal belongs to; default: from the path, else `settings.defaultAgent`. */
  agent?: string;
  /**
   * What to do when the journal is in no agent's folder and the default agent has no folder yet:
   * `create` (the default; the plugin's default agent is a setting the person chose) makes its
   * notes as items arrive, `refuse` throws a {@link UsageError} (the CLI: an agent is created only
   * by `init`; docs/decisions.md, "The CLI creates no agent"). An agent named by `agent` must
   * always exist.
   */
  newAgent?: "create" | "refuse";
  extractor: Extractor;
  /** Re-extract even when the journal's `extraction_hash` says it is unchanged. */
  force?: boolean;
  /** Clock, for tests. */
  now?: () => Date;
  /** Draws the ids of new tracker items (default `crypto.getRandomValues`); tests pass a seeded one. */
  random?: RandomSource;
  /**
   * Cancels the run: handed to the extractor (aborts a pending chat completion), and checked
   * between items while routing them (a {@link CancelledError} is thrown; nothing is written).
   */
  signal?: AbortSignal;
  /**
   * Awaited by the extractor between slices of a long journal, and every {@link CHECKPOINT_ITEMS}
   * items while routing (see {@link Checkpoint}).
   */
  checkpoint?: Checkpoint;
}

/** Items routed between two checkpoints while planning. */
export const CHECKPOINT_ITEMS = 50;

/** Characters of a refused item's text kept in the report (a 2 MB line is not printed whole). */
const REJECTED_TEXT_SHOWN = 200;

/** What {@link applyPlan} checks between notes: a cancel signal, and a checkpoint to await. */
export interface ApplyControl {
  signal?: AbortSignal;
  checkpoint?: Checkpoint;
}

/**
 * A plan is plain data (docs/architecture.md, "Plan and apply"): what would be written, item by
 * item.
 */
export interface ExtractionPlan {
  journal: string;
  agent: string;
  /** Why this agent: `--agent`, the journal's folder, or the default agent setting. */
  agentReason: AgentReason;
  extractor: Extractor["name"];
  /**
   * `unchanged`: the journal's extraction hash matched and nothing was extracted
   * (test/core/extraction/extraction-pipeline.test.ts, "case 10: …").
   */
  skipped?: "unchanged";
  passes: number;
  gate?: GateReport;
  items: PlannedItem[];
  rejected: RejectedItem[];
  usage: Usage;
  notes: string[];
  /** Hash of the journal body as read, recorded as `extraction_hash` on apply. */
  extractionHash: string;
  /**
   * Block ids the plan adds to the journal: `{ text: block text as read, id, place }`, `place`
   * being where the block stood ({@link WantedBlockId.place}).
   */
  newBlockIds: WantedBlockId[];
  /** Date used for `created` fields and callouts (`YYYY-MM-DD`): the journal's date when its name is one. */
  date: string;
}

/** The outcome of applying a plan. */
export interface ApplyResult {
  /** Vault paths actually written. */
  writes: string[];
  /**
   * Items that could not be written, with reasons (e.g. a topic name with nothing usable;
   * test/core/extraction/extraction-pipeline.test.ts, "case 12: …").
   */
  failed: RejectedItem[];
}

const EMPTY_USAGE: Usage = { calls: 0, promptTokens: 0, completionTokens: 0, wallMs: 0 };

/**
 * The item's text and carried fields with their secrets redacted ({@link redactSecrets}), as what
 * an agent sends to a write tool is (docs/mcp.md, "Secrets"): every item extraction writes, to a
 * tracker or a topic note, passes here, and the journal it came from keeps its words. A field named
 * as a secret (`[api_key:: …]`) keeps its name only, as `checkFieldValue` writes it.
 */
function redactItem(item: ExtractedItem): void {
  item.text = redactSecrets(item.text);
  if (item.fields)
    item.fields = item.fields.map(([key, value]) => [
      key,
      isSecretName(key) && value.trim() !== "" ? "[redacted: secret-field]" : redactSecrets(value),
    ]);
}

/**
 * What an extractor is told about the agent's memory (docs/architecture.md, "The checklist"): its
 * topics, its open goals and questions, and the other agents.
 */
export async function loadContext(
  vault: VaultPort,
  layout: MemoryLayout,
  agent: string,
  state: PlanReadCache,
): Promise<ExtractionContext> {
  const [agentFiles, libraryFiles] = await Promise.all([
    vault.list(layout.agentsRoot),
    vault.list(layout.libraryRoot),
  ]);
  const agentTopics = await state.topics(layout, agent, agentFiles);
  const topics = [
    ...[...agentTopics.values()].map(noteName),
    ...libraryFiles.map((f) => noteName(f.path)),
  ];
  const openItems: ExtractionContext["openItems"] = [];
  for (const kind of ["goals", "questions"] as const) {
    for (const it of await state.trackerItems(layout.trackerPath(agent, kind))) {
      if (it.id && isOpenStatus(it.status)) openItems.push({ id: it.id, kind, text: it.text });
    }
  }
  const agents = layout.agentsIn(agentFiles.map((f) => f.path)).filter((a) => a !== agent);
  return { agent, topics: [...new Set(topics)].sort(), openItems, agents };
}

/**
 * Why a run's agent was chosen (docs/decisions.md, "The CLI creates no agent"): named by the
 * caller, the journal's folder, or the default agent.
 */
export type AgentReason = "named" | "journal-folder" | "default-agent";

function chooseAgent(
  path: string,
  layout: MemoryLayout,
  options: ExtractionOptions,
): { agent: string; agentReason: AgentReason } {
  if (options.agent !== undefined) return { agent: options.agent, agentReason: "named" };
  const owner = layout.agentOf(path);
  if (owner !== null) return { agent: owner, agentReason: "journal-folder" };
  return { agent: options.settings.defaultAgent, agentReason: "default-agent" };
}

/** How a refusal names each generated note that has no part a person wrote. */
const GENERATED_WHAT: Readonly<Record<Exclude<GeneratedNoteKind, "review">, string>> = {
  digest: "a weekly digest written by compact (type: digest)",
  "review-queue": "a review queue written by watch-and-extract (type: review-queue)",
  "health-report": "the health report written by health (type: health-report)",
  brief: "a brief written by export-agents-md (its first line says so)",
};

/**
 * True when the journal at `path` waits for extraction: it exists and is not extracted as it now
 * reads ({@link extractedAsIs}), e.g. a run wrote it and was killed before extracting it. A
 * journal whose frontmatter does not parse is due too, so that {@link planExtraction} reports it.
 * Throws {@link VaultError} when the journal exists and cannot be read.
 */
export async function extractionDue(vault: VaultPort, path: string): Promise<boolean> {
  if (!(await vault.exists(path))) return false;
  const text = await vault.read(path);
  try {
    return !extractedAsIs(parseNote(text, path));
  } catch {
    // planExtraction reads it again and throws the frontmatter's error with its reason.
    return true;
  }
}

/**
 * Reads the journal, runs the extractor, assigns block ids, and routes and dedupes every item.
 * Writes nothing. A note the product generated (src/core/note-types.ts) is refused with a
 * {@link UsageError}, except a review note, of which only the reflection a person wrote is read.
 * Throws {@link VaultError} when the journal cannot be read, {@link FrontmatterError} when its
 * frontmatter does not parse or is a YAML list or single value rather than a mapping (applying
 * would have to write `extraction_hash` there, so nothing is extracted and no destination is
 * written;
 * docs/decisions.md, "Frontmatter that is a YAML list or a single value is never wrapped"), and
 * whatever the extractor throws (e.g. {@link LlmError}).
 */
export async function planExtraction(options: ExtractionOptions): Promise<ExtractionPlan> {
  const { vault, layout, journalPath, extractor } = options;
  // A journal may live outside the memory root (the Daily notes core plugin's folder); what is
  // written from it always goes under the root.
  const path = normalizeVaultPath(journalPath);
  const text = await vault.read(path);
  // A merge that stopped left both sides in the journal: reading it would drop one of them.
  const marker = findConflictMarkers(text)[0];
  if (marker) {
    throw new UsageError(
      `${path}: git conflict marker ${marker.marker} at line ${marker.line}; resolve the merge first (agent-memory git resolve <vault>, or keep both sides and delete the marker lines)`,
      path,
    );
  }
  const note = parseNote(text, path);
  const notMapping = notMappingError(note, path) ?? unclosedFrontmatterError(text, path);
  if (notMapping) throw notMapping;
  const breaking = linkBreakingCharacters(path);
  if (breaking.length) {
    throw new UsageError(
      `${path}: its name holds ${breaking.map((c) => `"${c}"`).join(", ")}, which no wikilink to it can hold, so the items' source links would be broken; rename the journal first`,
      path,
    );
  }
  const collection = layout.collectionOf(path);
  if (collection === "isolated") {
    throw new UsageError(
      `${path} is in the isolated zone "${layout.zoneOf(path) ?? ""}"; its content is never extracted into shared memory`,
      path,
    );
  }
  // A note the product generated is never read as a journal; of a review note only the part a
  // person wrote is (src/core/note-types.ts).
  const generated = generatedNoteKind(note.data, text);
  if (generated && generated !== "review") {
    throw new UsageError(
      `${path} is ${GENERATED_WHAT[generated]}, not a journal; extraction reads journals`,
      path,
    );
  }
  if (collection === "tracker" || collection === "knowledge" || collection === "library") {
    throw new UsageError(
      `${path} is a ${collection} note, not a journal; extraction reads journals`,
      path,
    );
  }
  const { agent, agentReason } = chooseAgent(path, layout, options);
  layout.agentRoot(agent); // throws PathError for an unsafe agent name
  if (
    agent !== layout.agentOf(path) &&
    (options.agent !== undefined || options.newAgent === "refuse")
  ) {
    const known = await knownAgents(vault, layout);
    if (!known.includes(agent)) {
      const knownList = `known: ${known.join(", ") || "none"}`;
      const create = `create it with: agent-memory init <vault> --agent ${agent}`;
      if (options.agent !== undefined)
        throw unknownAgentError(agent, known, "pass --agent with a known agent");
      throw new UsageError(
        `${path} is in no agent's folder, and the default agent "${agent}" does not exist yet (${knownList}); pass --agent NAME to choose one, or ${create}`,
        agent,
      );
    }
  }
  const hash = extractionHash(note.body);
  const title = noteName(path);
  const date = dateTitle(title) ?? today((options.now ?? (() => new Date()))());
  const base: ExtractionPlan = {
    journal: path,
    agent,
    agentReason,
    extractor: extractor.name,
    passes: 0,
    items: [],
    rejected: [],
    usage: { ...EMPTY_USAGE },
    notes: [],
    extractionHash: hash,
    newBlockIds: [],
    date,
  };
  if (!options.force && extractedAsIs(note, hash)) return { ...base, skipped: "unchanged" };

  const body = generated ? personWrittenPart(generated, note.body) : note.body;
  const blocks = splitBlocks(body);
  const state = new PlanReadCache(vault, options.random);
  const context = await loadContext(vault, layout, agent, state);
  const result: ExtractionResult = await extractor.extract({
    path,
    title,
    body,
    blocks,
    context,
    sectionHeadings: options.settings.sectionHeadings,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.checkpoint ? { checkpoint: options.checkpoint } : {}),
  });
  for (const item of result.items) redactItem(item);
  for (const r of result.rejected) r.text &&= redactSecrets(r.text);

  // Block ids: reuse the block's own, else a deterministic new one (docs/architecture.md,
  // "Journals").
  const taken = existingBlockIds(note.body);
  const assigned = new Map<number, string>();
  const tried = new Map<string, number>();
  const newBlockIds: ExtractionPlan["newBlockIds"] = [];
  // Blocks unchanged since extraction gave their id: an entry citing one is its item, however the
  // entry was edited since (docs/decisions.md, "An unchanged journal block's entry is its item").
  const unchangedBlocks = new Set<string>();
  for (const item of result.items) {
    const block = blocks[item.blockIndex];
    if (!block) continue;
    if (block.blockId) {
      item.blockId = block.blockId;
      if (blockUnchangedSinceId(path, block)) unchangedBlocks.add(block.blockId);
      continue;
    }
    let id = assigned.get(item.blockIndex);
    if (!id) {
      id = newBlockId(blockIdSeed(path, block.text), taken, tried);
      taken.add(id);
      assigned.set(item.blockIndex, id);
      newBlockIds.push({ text: block.text, id, place: blockPlace(blocks, item.blockIndex) });
    }
    item.blockId = id;
  }

  const fallbackTopic =
    typeof note.data?.domain === "string" && note.data.domain.trim()
      ? note.data.domain.trim()
      : "General";
  const items: PlannedItem[] = [];
  const rejected: RejectedItem[] = [...result.rejected];
  const blockTexts = new Map<string, string[]>();
  for (const item of result.items)
    if (item.blockId)
      blockTexts.set(item.blockId, [...(blockTexts.get(item.blockId) ?? []), item.text]);
  for (const [i, item] of result.items.entries()) {
    if (i > 0 && i % CHECKPOINT_ITEMS === 0) {
      await options.checkpoint?.({ phase: "plan", done: i, total: result.items.length });
      if (options.signal?.aborted)
        throw new CancelledError(
          `extraction of ${path} cancelled while planning; nothing was written`,
        );
    }
    // Too long for a line, or a control character from a damaged journal: refused, not written.
    const problem = textProblem("the item's text", item.text);
    if (problem !== null) {
      rejected.push({
        reason: problem,
        category: item.category,
        text: truncateLine(item.text, REJECTED_TEXT_SHOWN),
      });
      continue;
    }
    const routed = await resolveRoute(item, {
      settings: options.settings,
      layout,
      agent,
      journal: path,
      date,
      fallbackTopic,
      state,
      blockTexts,
      unchangedBlocks,
    });
    if ("reason" in routed) rejected.push(routed);
    else items.push(...routed);
  }
  // Reports say "new note" only of a note applying creates (`actionWords`).
  for (const p of items)
    if (
      (p.action === "add" || p.action === "supersede") &&
      (await state.text(p.destination)) === null
    )
      p.newNote = true;
  return {
    ...base,
    passes: result.passes,
    ...(result.gate ? { gate: result.gate } : {}),
    items,
    rejected,
    usage: result.usage,
    notes: result.notes,
    newBlockIds,
  };
}

/**
 * Applies a plan: each destination note through one atomic `VaultPort.process` call on its current
 * content, then the journal (block ids, `extracted_at`, `extraction_hash`). Items the plan marks
 * `skip` write nothing. A destination that fails is reported in `failed`; the journal is then not
 * marked as extracted, so the next run tries again; so too when the plan rejected an item with
 * `retry` (docs/decisions.md, "Ids planned in the same run"). Never deletes anything.
 */
export async function applyPlan(
  vault: VaultPort,
  layout: MemoryLayout,
  plan: ExtractionPlan,
  now: () => Date = () => new Date(),
  control: ApplyControl = {},
): Promise<ApplyResult> {
  const writes: string[] = [];
  const failed: RejectedItem[] = [];
  if (plan.skipped) return { writes, failed };
  // The journal as it is now, before any destination cites it: a block a person gave an id of
  // their own meanwhile is cited by that id; an item whose block is gone is not written
  // (docs/decisions.md, "A journal line reworded during extraction keeps its item's block id").
  const sources = await journalSources(vault, plan);
  const groups = new Map<string, PlannedItem[]>();
  for (const listed of plan.items) {
    if (listed.action === "skip") continue;
    const blockId = listed.item.blockId;
    if (blockId && sources.gone.has(blockId)) {
      failed.push({
        reason: `${plan.journal}: the block it was extracted from (^${blockId}) was edited or removed during extraction, so its source link would name nothing; not written, run extract again`,
        category: listed.item.category,
        text: listed.item.text,
        evidence: listed.item.evidence,
      });
      continue;
    }
    const own = blockId ? sources.renamed.get(blockId) : undefined;
    const planned = own ? { ...listed, item: { ...listed.item, blockId: own } } : listed;
    const list = groups.get(planned.destination) ?? [];
    list.push(planned);
    groups.set(planned.destination, list);
  }
  const usedBlocks = new Set<string>();
  /** Block ids that written notes cite. */
  const citedBlocks = new Set<string>();
  const ctx = {
    agent: plan.agent,
    journal: plan.journal,
    date: plan.date,
    timestamp: localTimestamp(now()),
    layout,
  };
  let cancelled = false;
  let done = 0;
  for (const [destination, group] of groups) {
    // Between notes, never inside one: a note is written whole or not at all (docs/write-safety.md).
    await control.checkpoint?.({ phase: "apply", done, total: groups.size });
    if (control.signal?.aborted) {
      cancelled = true;
      break;
    }
    done++;
    try {
      const path = layout.under(destination);
      const written = await vault.process(path, (current) => {
        // Fresh per attempt: an edit applied again on a note saved meanwhile numbers ids anew.
        const created = new Map<string, string>();
        return writeItems(current, group, { ...ctx, created });
      });
      if (written) writes.push(path);
      for (const planned of group) {
        if (!planned.item.blockId) continue;
        usedBlocks.add(planned.item.blockId);
        citedBlocks.add(planned.item.blockId);
      }
    } catch (err) {
      // A note that must not be touched (a link out of the vault, not UTF-8, caught mid-save)
      // stops the run: the journal is not marked as extracted.
      if (stopsRun(err)) throw err;
      for (const planned of group) {
        failed.push({
          reason: `could not write ${destination}: ${errorMessage(err)}`,
          category: planned.item.category,
          text: planned.item.text,
          evidence: planned.item.evidence,
        });
      }
    }
  }
  // A cancel that came while the last note was written still counts: the journal is not marked.
  if (!cancelled) {
    await control.checkpoint?.({ phase: "apply", done, total: groups.size });
    if (control.signal?.aborted) cancelled = true;
  }
  // Block ids are needed by every item whose source points at them, written or skipped. After a
  // failure only the ids that written notes cite are added, and the journal is not marked as
  // extracted, so the next run tries the failed items again.
  // A cancelled run gives the journal all its planned ids, so that the next run numbers blocks as
  // this one did and ends as an uninterrupted run would have.
  if (failed.length === 0)
    for (const planned of plan.items)
      if (planned.item.blockId) usedBlocks.add(planned.item.blockId);
  const wanted = plan.newBlockIds.filter((b) => usedBlocks.has(b.id));
  // An item a later run could accept (an id that names nothing yet) keeps the journal unmarked too;
  // so does a cancelled run, which still gives the journal the block ids its written notes cite.
  const complete = failed.length === 0 && !cancelled && !plan.rejected.some((r) => r.retry);
  const extractedAt = ctx.timestamp;
  const journal = await vault.process(plan.journal, (current): Decision<string[]> => {
    if (current === null)
      throw new MemoryError(`journal disappeared during extraction: ${plan.journal}`, plan.journal);
    const note = parseNote(current, plan.journal);
    const head = current.slice(0, note.bodyOffset);
    const { body } = addBlockIds(note.body, wanted);
    // Edited away while the notes were written (after journalSources looked): those links are
    // broken, and the journal stays unmarked so that the next run extracts the block as it now is.
    const present = existingBlockIds(body);
    const broken = [...citedBlocks].filter((id) => !present.has(id));
    const withIds = head + body;
    if (!complete || broken.length > 0) return { content: withIds, result: broken };
    if (note.data?.extraction_hash === plan.extractionHash && withIds === current)
      return { content: current, result: broken };
    return {
      content: setFrontmatter(
        withIds,
        { extracted_at: extractedAt, extraction_hash: plan.extractionHash },
        plan.journal,
      ),
      result: broken,
    };
  });
  if (journal.written) writes.push(plan.journal);
  const broken = new Set(journal.result);
  for (const group of groups.values())
    for (const planned of group)
      if (planned.item.blockId && broken.has(planned.item.blockId))
        failed.push({
          reason: `written to ${planned.destination}, but the block it was extracted from (^${planned.item.blockId}) was edited or removed in ${plan.journal} while the notes were written, so its source link names nothing; run extract again`,
          category: planned.item.category,
          text: planned.item.text,
          evidence: planned.item.evidence,
        });
  if (cancelled)
    throw new CancelledError(
      `extraction of ${plan.journal} cancelled after ${writes.length} of its notes were written; the journal is not marked as extracted`,
      writes,
    );
  return { writes, failed };
}

/** What {@link journalSources} found of the plan's block ids in the journal's current text. */
interface JournalSources {
  /** Planned new ids whose block a person gave an id of their own meanwhile: that id, by planned id. */
  renamed: Map<string, string>;
  /** Ids items cite whose block is no longer in the journal (removed, or reworded past finding). */
  gone: Set<string>;
}

/**
 * Reads the journal under its lock (writing nothing) and finds, as {@link addBlockIds} will, the
 * block of every id the plan's items cite. Throws {@link MemoryError} when the journal is gone,
 * {@link FrontmatterError} when its frontmatter no longer parses: nothing is written then.
 */
async function journalSources(vault: VaultPort, plan: ExtractionPlan): Promise<JournalSources> {
  const { result } = await vault.process(
    plan.journal,
    (current): Decision<JournalSources | null> => {
      if (current === null) return { content: null, result: null };
      const { body, kept } = addBlockIds(parseNote(current, plan.journal).body, plan.newBlockIds);
      const present = existingBlockIds(body);
      const renamed = new Map(kept.map((k) => [k.id, k.existingId]));
      const gone = new Set<string>();
      for (const planned of plan.items) {
        const id = planned.item.blockId;
        if (id && !renamed.has(id) && !present.has(id)) gone.add(id);
      }
      return { content: current, result: { renamed, gone } };
    },
  );
  if (result === null)
    throw new MemoryError(`journal disappeared during extraction: ${plan.journal}`, plan.journal);
  return result;
}

/**
 * True for the errors that stop a whole run rather than fail one destination: a note whose real
 * path leaves the vault, that is not UTF-8, or that was caught being saved in place
 * (docs/write-safety.md). A note that cannot be written for now (permission, lock, frontmatter
 * that does not parse) only fails its items.
 */
function stopsRun(err: unknown): boolean {
  return (
    err instanceof PathError || err instanceof EncodingError || err instanceof TruncatedNoteError
  );
}

/**
 * JSON report of a run (docs/architecture.md, "The CLI contract"): the shape of `agent-memory
 * extract --json`.
 */
export interface ExtractionReport {
  journal: string;
  agent: string;
  agentReason: AgentReason;
  extractor: Extractor["name"];
  skipped?: "unchanged";
  passes: number;
  gate: { fired: string[]; before: number; after: number };
  items: {
    category: string;
    text: string;
    evidence: string;
    blockId: string | null;
    confidence: number;
    topic?: string;
    /** `YYYY-MM-DD`, written as `[due:: …]` (`[target:: …]` on a goal). */
    due?: string;
    /** Who acts on a task when it is not the author, written as `[owner:: …]`. */
    owner?: string;
    /** The agent a question or proposal is addressed to, written as `[to:: [[…]]]`. */
    target?: string;
    destination: string;
    action: PlannedItem["action"];
    existingId?: string;
    /** The destination note is created by this run ({@link PlannedItem.newNote}). */
    newNote?: boolean;
    /** For `supersede`: the entry replaced, and why (docs/contradictions.md). */
    supersedes?: PlannedItem["supersedes"];
  }[];
  rejected: RejectedItem[];
  usage: Usage;
  notes: string[];
  writes: string[];
  dryRun: boolean;
}

/** Builds the report of a plan and (unless a dry run) its apply result. */
export function extractionReport(
  plan: ExtractionPlan,
  applied: ApplyResult | null,
): ExtractionReport {
  return {
    journal: plan.journal,
    agent: plan.agent,
    agentReason: plan.agentReason,
    extractor: plan.extractor,
    ...(plan.skipped ? { skipped: plan.skipped } : {}),
    passes: plan.passes,
    gate: {
      fired: plan.gate?.fired ?? [],
      before: plan.gate?.before ?? plan.items.length,
      after: plan.gate?.after ?? plan.items.length,
    },
    items: plan.items.map((p) => ({
      category: p.item.category,
      text: p.item.text,
      evidence: p.item.evidence,
      blockId: p.item.blockId,
      confidence: p.item.confidence,
      ...(p.item.topic ? { topic: p.item.topic } : {}),
      ...(p.item.due ? { due: p.item.due } : {}),
      ...(p.item.owner ? { owner: p.item.owner } : {}),
      ...(p.item.target ? { target: p.item.target } : {}),
      destination: p.destination,
      action: p.action,
      ...(p.existingId ? { existingId: p.existingId } : {}),
      ...(p.newNote ? { newNote: true } : {}),
      ...(p.supersedes ? { supersedes: p.supersedes } : {}),
    })),
    rejected: [...plan.rejected, ...(applied?.failed ?? [])],
    usage: plan.usage,
    notes: plan.notes,
    writes: applied?.writes ?? [],
    dryRun: applied === null,
  };
}
