/**
 * The MCP server's tools (docs/mcp.md, "Tools"). Each tool is a zod input schema, an output schema,
 * its annotations and a handler that returns a short text and the same facts as
 * `structuredContent`. A handler that throws becomes a tool error (`isError: true`) with a one-line
 * reason; nothing a tool does deletes a note or an item, and every write goes through {@link
 * MemoryAccess.writeGuarded} (the agent's own folder) and `NodeVault.process` (locked, atomic;
 * docs/write-safety.md).
 */
import { z } from "zod";
import { buildBrief, type BriefSearchFn } from "../core/brief";
import { isIsoDate, localTimestamp, today as todayOf } from "../core/util/dates";
import { formatWikilink, toWikilink, noteName } from "../core/markdown/wikilinks";
import { MemoryError, UsageError, errorMessage } from "../core/errors";
import { applyPlan, extractionReport, planExtraction } from "../core/extraction/pipeline";
import {
  contradiction,
  findContradiction,
  findRestatement,
  supersessionLabel,
} from "../core/extraction/contradiction";
import { appendCallout } from "../core/extraction/write-item";
import { SUPERSEDES_KEY, isSuperseded, supersedeTrackerItem } from "../core/knowledge/supersede";
import { runHealthCheck, toHealthJson } from "../core/health";
import { appendJournalBlock } from "../core/journal/append";
import {
  listTopicEntries,
  topicKey,
  type EntryKind,
  type TopicEntry,
} from "../core/knowledge/topic";
import { TRACKER_KINDS, type TrackerKind } from "../core/settings";
import { parseScope } from "../core/search/scope";
import { FIELD_KEYS, PRIORITY_WORDS } from "../core/trackers/fields";
import { newItemFields } from "../core/trackers/new-item";
import { checkboxOf, listItems } from "../core/trackers/format";
import { LIST_STATUSES, listTrackerItems } from "../core/trackers/list";
import { advanceReview } from "../core/trackers/reviews";
import { addAnswer } from "../core/trackers/answers";
import {
  addItemSource,
  addProgressNote,
  addTrackerItem,
  findItem,
  setItemField,
  setItemStatus,
  type EditResult,
} from "../core/trackers/store";
import type { DecideFn, Decided } from "../core/vault";
import type { CliContext } from "../node/context";
import { createCliExtractor } from "../node/llm-env";
import { oneLine } from "../node/one-line";
import type { MemoryAccess } from "./access";
import type { LiveIndex } from "../node/live-index";
import { findNote, readNotePage } from "./read-note";
import { INBOX_TOOLS } from "./tools-inbox";
import { agentEditRefusal } from "../core/inbox/inbox";
import {
  RETRIEVALS,
  searchPassagesWith,
  searchWith,
  type SemanticSource,
} from "../core/semantic/hybrid";
import type { Retrieval } from "../core/search/search-service";

import type { Hints, ToolDeps, ToolOutput, ToolSpec } from "./tool-spec";
import { TOPIC_HEADINGS } from "../core/knowledge/callouts";

export type { Hints, ToolDeps, ToolOutput, ToolSpec } from "./tool-spec";

const READ: Hints = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
/** Adds to a note; calling twice adds twice (a journal block) or finds the first (trackers, callouts dedupe). */
const ADD: Hints = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

const kind = z.enum(TRACKER_KINDS);
const date = z.string().refine(isIsoDate, "must be a date YYYY-MM-DD");
const fieldKey = z
  .string()
  .regex(/^[A-Za-z][\w-]{0,39}$/, "field names are letters, digits, _ and -");
const fieldValue = z.string().min(1);
const anyList = z.array(z.record(z.string(), z.unknown()));

/** `[[path-without-.md#^id]]`, or `[[path-without-.md]]` without an id. */
function noteLink(path: string, blockId?: string | null): string {
  return formatWikilink({ path, blockId });
}

/**
 * Writes through the guard and re-indexes at once (the watcher would too, a moment later).
 * Returns whether the note was written and what the edit decided (its last run's, see `DecideFn`).
 */
async function write<T>(deps: ToolDeps, path: string, fn: DecideFn<T>): Promise<Decided<T>> {
  const done = await deps.access.writeGuarded().process(path, fn);
  if (done.written) await deps.live.wrote(path);
  return done;
}

/** The result of a tracker edit, or a {@link UsageError} with its reason. */
function edited(r: EditResult, path: string, id: string): string {
  if (!r.ok) throw new UsageError(r.error.found ? r.error.message : `no item ^${id} in ${path}`);
  return r.value.text;
}

/** Checks a scope argument against the server's zones. */
function scopeFor(deps: ToolDeps, scope: string | undefined): string {
  const value = scope?.trim() || deps.defaultScope;
  const parsed = parseScope(value, deps.ctx.settings);
  if (!parsed.ok) throw new UsageError(parsed.error);
  if (parsed.value.kind === "zone" && !deps.access.zoneAllowed(parsed.value.zone)) {
    throw new UsageError(
      `scope ${parsed.value.zone} is an isolated zone this server was not started with (--zone ${parsed.value.zone})`,
    );
  }
  return value;
}

const search: ToolSpec = {
  name: "search",
  description:
    'Search memory: words, "phrases", filters (type: tag: status: after: …), -word. mode: notes|passages. scope: all, library, agent:NAME or a zone (default: yours).',
  input: {
    query: z.string().min(1),
    mode: z.enum(["notes", "passages"]).optional(),
    retrieval: z.enum(RETRIEVALS as [Retrieval, ...Retrieval[]]).optional(),
    scope: z.string().optional(),
    limit: z.number().int().min(1).max(50).optional(),
  },
  output: {
    query: z.string(),
    scope: z.string(),
    mode: z.string(),
    retrieval: z.string(),
    total: z.number(),
    took_ms: z.number(),
    results: z.array(
      z
        .object({
          path: z.string(),
          title: z.string(),
          score: z.number(),
          snippet: z.string(),
          link: z.string(),
        })
        .loose(),
    ),
  },
  hints: READ,
  async run(args, deps) {
    const query = String(args.query);
    const scope = scopeFor(deps, args.scope as string | undefined);
    const limit = (args.limit as number | undefined) ?? 10;
    const mode = (args.mode as string | undefined) ?? "notes";
    await deps.live.settled();
    const retrieval = args.retrieval as Retrieval | undefined;
    const source = retrieval === "bm25" ? null : ((await deps.semantic?.()) ?? null);
    const via = retrieval ? { retrieval } : {};
    if (mode === "passages") return passages(deps, query, scope, limit, via, source);
    const found = await searchWith(
      deps.live.service,
      query,
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
    return {
      text: lines.join("\n"),
      data: {
        query,
        scope: res.scope,
        mode,
        retrieval: res.retrieval ?? "bm25",
        total: res.total,
        took_ms: res.took_ms,
        results,
      },
    };
  },
};

/** `mode: passages`: the best blocks across notes, ranked together ({@link SearchService.searchPassages}). */
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

const readNote: ToolSpec = {
  name: "read_note",
  description:
    "Read a note by vault path, frontmatter id, title or [[wikilink#heading]] / [[note#^block]]. Paged: offset and limit in characters; says total_chars and next_offset.",
  input: {
    note: z.string().min(1),
    offset: z.number().int().min(0).optional(),
    limit: z.number().int().min(1).max(100_000).optional(),
  },
  output: {
    path: z.string(),
    title: z.string(),
    anchor: z.string().nullable(),
    total_chars: z.number(),
    offset: z.number(),
    next_offset: z.number().nullable(),
    text: z.string(),
  },
  hints: READ,
  async run(args, deps) {
    await deps.live.settled();
    const target = await findNote(String(args.note), deps.access, deps.live);
    const page = await readNotePage(
      target,
      deps.access,
      deps.live,
      (args.offset as number | undefined) ?? 0,
      (args.limit as number | undefined) ?? 20_000,
    );
    const more = page.next_offset === null ? "end" : `more from offset ${page.next_offset}`;
    const head = `${page.path}${page.anchor ?? ""} · characters ${page.offset}–${page.offset + page.text.length} of ${page.total_chars} (${more})`;
    return { text: `${head}\n\n${page.text}`, data: { ...page } };
  },
};

const brief: ToolSpec = {
  name: "brief",
  description:
    "Session brief of this agent: due reviews, open tasks, questions, goals, proposals, recent decisions and relevant knowledge, each linked; cut to budget_tokens, naming what was left out.",
  input: {
    query: z.string().optional(),
    budget_tokens: z.number().int().min(100).max(50_000).optional(),
  },
  output: {
    agent: z.string(),
    markdown: z.string(),
    budget: z.record(z.string(), z.unknown()),
    omitted: anyList,
  },
  hints: READ,
  async run(args, deps) {
    await deps.live.settled();
    const { ctx, access } = deps;
    const service = deps.live.service;
    // Knowledge comes through the search, held to the scopes this server may see.
    const source = (await deps.semantic?.()) ?? null;
    const search: BriefSearchFn = (q, o) =>
      searchWith(
        service,
        q,
        { ...o, scope: scopeFor(deps, o.scope ?? `agent:${access.agent}`) },
        source,
        ctx.err,
      );
    const b = await buildBrief({
      vault: ctx.vault,
      layout: ctx.layout,
      settings: ctx.settings,
      agent: access.agent,
      today: todayOf(deps.now()),
      ...(typeof args.query === "string" ? { query: args.query } : {}),
      ...(typeof args.budget_tokens === "number" ? { budgetTokens: args.budget_tokens } : {}),
      search,
      vaultLabel: ctx.vaultArg,
    });
    return {
      text: b.markdown,
      data: {
        agent: b.agent,
        today: b.today,
        query: b.query,
        markdown: b.markdown,
        budget: b.budget,
        omitted: b.omitted,
      } as unknown as Record<string, unknown>,
    };
  },
};

const appendJournal: ToolSpec = {
  name: "append_journal",
  description:
    "Append a Markdown block to today's journal of this agent (created if missing). Returns its block id and link.",
  input: { text: z.string().min(1) },
  output: {
    path: z.string(),
    id: z.string(),
    ids: z.array(z.string()),
    link: z.string(),
    created: z.boolean(),
  },
  hints: ADD,
  async run(args, deps) {
    const { access, ctx } = deps;
    const day = todayOf(deps.now());
    const path = ctx.layout.journalPath(access.agent, day);
    const {
      result: { ids, created },
    } = await write(deps, path, (current) => {
      const appended = appendJournalBlock(current, String(args.text), {
        agent: access.agent,
        date: day,
        path,
      });
      return { content: appended.text, result: { ids: appended.ids, created: current === null } };
    });
    const id = ids[0] ?? "";
    const link = noteLink(path, id);
    return {
      text: `appended to ${path}${created ? " (new journal)" : ""}: ${link}`,
      data: { path, id, ids, link, created },
    };
  },
};

const extract: ToolSpec = {
  name: "extract",
  description:
    "Extract tasks, goals, decisions, questions, knowledge… from a journal of this agent (default today's). apply false (default) returns the plan; apply true writes it.",
  input: {
    journal: z.string().optional(),
    apply: z.boolean().optional(),
    force: z.boolean().optional(),
  },
  output: {
    journal: z.string(),
    extractor: z.string(),
    dryRun: z.boolean(),
    items: anyList,
    rejected: anyList,
    writes: z.array(z.string()),
  },
  hints: { ...ADD, idempotentHint: true },
  async run(args, deps) {
    const { access, ctx } = deps;
    const raw =
      typeof args.journal === "string" && args.journal.trim()
        ? args.journal.trim()
        : todayOf(deps.now());
    const path = access.writable(isIsoDate(raw) ? ctx.layout.journalPath(access.agent, raw) : raw);
    if (!(await ctx.vault.exists(path))) throw new UsageError(`no journal ${path}`);
    const { extractor, why } = createCliExtractor(ctx, undefined);
    const vault = access.writeGuarded();
    const plan = await planExtraction({
      vault,
      settings: ctx.settings,
      layout: ctx.layout,
      journalPath: path,
      agent: access.agent,
      extractor,
      force: args.force === true,
    });
    // Items routed outside the agent's folder (none by default) are refused before anything is written.
    const inside = (p: string) => p.startsWith(`${access.writeRoot}/`);
    for (const planned of plan.items.filter((p) => !inside(p.destination))) {
      plan.rejected.push({
        reason: `${planned.destination} is outside the folder of agent ${access.agent}`,
        category: planned.item.category,
        text: planned.item.text,
        evidence: planned.item.evidence,
      });
    }
    plan.items = plan.items.filter((p) => inside(p.destination));
    const applied = args.apply === true ? await applyPlan(vault, ctx.layout, plan) : null;
    for (const p of applied?.writes ?? []) await deps.live.wrote(p);
    const report = extractionReport(plan, applied);
    const lines = [
      `${report.journal}: ${report.skipped ? "unchanged since the last extraction (force: true to redo)" : `${report.items.length} item(s), ${report.rejected.length} rejected`} — ${report.extractor}`,
    ];
    for (const it of report.items)
      lines.push(
        `- ${it.category}: ${it.text} → ${it.destination} (${it.supersedes ? supersessionLabel(it.supersedes) : it.action})`,
      );
    for (const r of report.rejected)
      lines.push(`- rejected: ${r.reason}${r.text ? ` — ${r.text}` : ""}`);
    lines.push(
      applied
        ? `wrote ${report.writes.length} note(s)`
        : "plan only: call again with apply: true to write it",
    );
    return {
      text: lines.join("\n"),
      data: { ...report, extractorReason: why } as unknown as Record<string, unknown>,
    };
  },
};

const listTrackers: ToolSpec = {
  name: "list_trackers",
  description:
    "List tracker items (tasks, goals, reviews, proposals, questions, decisions) of this agent or another.",
  input: {
    kind: kind.optional(),
    status: z.enum(LIST_STATUSES).optional(),
    agent: z.string().optional(),
  },
  output: { agent: z.string(), status: z.string(), items: anyList },
  hints: READ,
  async run(args, deps) {
    const agent =
      typeof args.agent === "string" && args.agent.trim() ? args.agent.trim() : deps.access.agent;
    deps.ctx.layout.agentRoot(agent);
    const k = args.kind as TrackerKind | undefined;
    const status =
      (args.status as (typeof LIST_STATUSES)[number] | undefined) ??
      (k === "decisions" ? "all" : "open");
    const items = await listTrackerItems(deps.ctx.vault, deps.ctx.layout, {
      agents: [agent],
      kinds: k ? [k] : [...TRACKER_KINDS],
      status,
      today: todayOf(deps.now()),
    });
    const lines = items.length
      ? items.map(
          (it) =>
            `${checkboxOf(it.status)} ${it.kind} ^${it.id ?? "-"} ${it.text}${it.due ? ` (due ${it.due}${it.overdue ? ", overdue" : ""})` : ""}${it.reviewDue ? " (review due)" : ""}`,
        )
      : [`no ${status === "all" ? "" : `${status} `}items`];
    return {
      text: lines.join("\n"),
      data: { agent, status, items } as unknown as Record<string, unknown>,
    };
  },
};

const addTracker: ToolSpec = {
  name: "add_tracker_item",
  description:
    "Add an item to a tracker of this agent; returns its id (t-007…). Never added twice; a changed decision supersedes.",
  input: {
    kind,
    text: z.string().min(1),
    due: date.optional(),
    priority: z.enum(PRIORITY_WORDS).optional(),
    to: z.string().optional(),
    source: z.string().optional(),
    fields: z.record(fieldKey, fieldValue).optional(),
  },
  output: {
    path: z.string(),
    id: z.string(),
    link: z.string(),
    added: z.boolean(),
    supersedes: z.string().optional(),
  },
  hints: ADD,
  async run(args, deps) {
    const { access, ctx } = deps;
    const k = args.kind as TrackerKind;
    const path = ctx.layout.trackerPath(access.agent, k);
    const day = todayOf(deps.now());
    const fields = newItemFields(k, {
      date: day,
      to: typeof args.to === "string" ? toWikilink(args.to) : undefined,
      due: typeof args.due === "string" ? args.due : undefined,
      priority: typeof args.priority === "string" ? args.priority : undefined,
      source:
        typeof args.source === "string" && args.source.trim() ? toWikilink(args.source) : undefined,
    });
    for (const [key, value] of Object.entries(
      (args.fields as Record<string, string> | undefined) ?? {},
    )) {
      if (!fields.some(([k0]) => k0.toLowerCase() === key.toLowerCase())) fields.push([key, value]);
    }
    const refused = agentEditRefusal(k, undefined, fields);
    if (refused) throw new UsageError(refused);
    const text = String(args.text).replace(/\s+/g, " ").trim();
    const {
      result: { id, added, supersedes, reason },
    } = await write<{
      id: string;
      added: boolean;
      supersedes?: string;
      reason?: "polarity" | "value";
    }>(deps, path, (current) => {
      const same = current === null ? null : listItemsSame(current, text);
      if (same) return { content: current, result: { id: same, added: false } };
      // A decision goes through the statement rule, as extraction's do (docs/contradictions.md,
      // "The rule"): a restatement is not added, a change supersedes the decision it changes.
      const against = k === "decisions" && current !== null ? decisionAgainst(current, text) : null;
      if (against?.outcome === "restatement")
        return { content: current, result: { id: against.id, added: false } };
      const old = against?.outcome === "change" ? against.id : undefined;
      const lineFields: [string, string][] = old
        ? [[SUPERSEDES_KEY, formatWikilink({ path, blockId: old })], ...fields]
        : fields;
      const r = addTrackerItem(
        current,
        k,
        { text, status: k === "decisions" ? "done" : "open", fields: lineFields },
        {
          agent: access.agent,
          title: ctx.settings.trackerFiles[k],
          createdAt: localTimestamp(new Date(deps.now())),
        },
        path,
      );
      // A value with unbalanced brackets would end its field early and spill into the text.
      const item = findItem(r.text, r.id);
      if (!item || item.text !== text || item.fields.length !== lineFields.length) {
        throw new UsageError("a value would break the tracker line (unbalanced [ ] or ( ))");
      }
      if (!old) return { content: r.text, result: { id: r.id, added: true } };
      const marked = edited(
        supersedeTrackerItem(r.text, old, formatWikilink({ path, blockId: r.id }), day, path),
        path,
        old,
      );
      return {
        content: marked,
        result: {
          id: r.id,
          added: true,
          supersedes: old,
          ...(against?.reason ? { reason: against.reason } : {}),
        },
      };
    });
    const link = noteLink(path, id);
    const label = supersedes
      ? `, ${supersessionLabel({ id: supersedes, text: "", reason: reason ?? "value" })}`
      : "";
    return {
      text: `${added ? "added" : "already there"}: ^${id} in ${path}${label} ${link}`,
      data: { path, id, link, added, ...(supersedes ? { supersedes } : {}) },
    };
  },
};

/**
 * The current decision of a Decisions tracker that `text` restates or changes by the statement
 * rule (`compareStatements`), or `null`.
 */
function decisionAgainst(
  note: string,
  text: string,
): { outcome: "restatement" | "change"; id: string; reason?: "polarity" | "value" } | null {
  const live = listItems(note).filter(
    (it) => it.id !== null && it.status !== "abandoned" && !isSuperseded(it.fields),
  );
  const same = live[findRestatement(text, live, (it) => it.text)];
  if (same?.id) return { outcome: "restatement", id: same.id };
  const changed = live[findContradiction(text, live, (it) => it.text)];
  if (!changed?.id) return null;
  return {
    outcome: "change",
    id: changed.id,
    reason: contradiction(text, changed.text) ?? "value",
  };
}

/** The id of an item not closed whose text is the same (whitespace and case aside), or `null`. */
function listItemsSame(text: string, wanted: string): string | null {
  const key = wanted.toLowerCase();
  const found = listItems(text).find(
    (it) => it.id && it.text.toLowerCase() === key && it.status !== "abandoned",
  );
  return found?.id ?? null;
}

const updateTracker: ToolSpec = {
  name: "update_tracker_item",
  description:
    "Update a tracker item of this agent by id: status, a dated progress note, an answer, or fields. Never removes an item. A review marked done moves to its next date.",
  input: {
    kind,
    id: z.string().regex(/^[A-Za-z0-9-]{1,40}$/, "an item id like t-007"),
    status: z.enum(["open", "in-progress", "done", "abandoned"]).optional(),
    progress: z.string().min(1).optional(),
    answer: z.string().min(1).optional(),
    fields: z.record(fieldKey, fieldValue).optional(),
  },
  output: {
    path: z.string(),
    id: z.string(),
    changed: z.boolean(),
    status: z.string(),
    link: z.string(),
  },
  hints: { ...ADD, idempotentHint: true },
  async run(args, deps) {
    const { access, ctx } = deps;
    const k = args.kind as TrackerKind;
    const id = String(args.id).replace(/^\^/, "");
    const fields = Object.entries((args.fields as Record<string, string> | undefined) ?? {});
    if (
      args.status === undefined &&
      args.progress === undefined &&
      args.answer === undefined &&
      fields.length === 0
    ) {
      throw new UsageError("nothing to update: give status, progress, answer or fields");
    }
    const refused = agentEditRefusal(k, args.status as string | undefined, fields);
    if (refused) throw new UsageError(refused);
    const path = ctx.layout.trackerPath(access.agent, k);
    const day = todayOf(deps.now());
    if (!(await ctx.vault.exists(path)))
      throw new UsageError(`no item ^${id} in ${path} (the tracker does not exist)`);
    const { written: changed, result: status } = await write(deps, path, (current) => {
      if (current === null) throw new UsageError(`no item ^${id} in ${path}`);
      let text = current;
      if (!findItem(text, id)) throw new UsageError(`no item ^${id} in ${path}`);
      if (args.status === "done" && k === "reviews") {
        const r = advanceReview(text, id, day, path);
        if (!r.ok) throw new UsageError(r.error);
        text = r.value.text;
      } else if (typeof args.status === "string")
        text = edited(setItemStatus(text, id, args.status as "open", path, day), path, id);
      if (typeof args.progress === "string")
        text = edited(addProgressNote(text, id, args.progress, day, path), path, id);
      if (typeof args.answer === "string")
        text = edited(addAnswer(text, id, args.answer, access.agent, day, path), path, id);
      for (const [key, value] of fields) {
        // A source is added to the links already there, never replaces them.
        text =
          key.toLowerCase() === FIELD_KEYS.source
            ? edited(addItemSource(text, id, value, path), path, id)
            : edited(setItemField(text, id, key, value, path), path, id);
      }
      return { content: text, result: findItem(text, id)?.status ?? "" };
    });
    const link = noteLink(path, id);
    return {
      text: `${changed ? "updated" : "unchanged"}: ^${id} (${status}) ${link}`,
      data: { path, id, changed, status, link },
    };
  },
};

const addKnowledge: ToolSpec = {
  name: "add_knowledge",
  description:
    "Add an insight, pattern or decision callout to a topic note of this agent (made if missing); a change supersedes, a restatement is skipped.",
  input: {
    topic: z.string().min(1),
    text: z.string().min(1),
    kind: z.enum(["insight", "pattern", "decision"]).optional(),
    confidence: z.number().min(0).max(1),
    source: z.string().optional(),
    category: z.string().optional(),
  },
  output: {
    path: z.string(),
    link: z.string(),
    created: z.boolean(),
    added: z.boolean(),
    supersedes: z.string().optional(),
  },
  hints: ADD,
  async run(args, deps) {
    const { access, ctx, live } = deps;
    const topic = String(args.topic).trim();
    const entryKind = (args.kind as EntryKind | undefined) ?? "insight";
    const folder = `${ctx.layout.knowledgeFolder(access.agent)}/`;
    const key = topicKey(topic);
    let path: string | undefined;
    for (const p of live.notePaths())
      if (p.startsWith(folder) && topicKey(noteName(p)) === key) path = p;
    const category =
      typeof args.category === "string" && args.category.trim() ? args.category.trim() : undefined;
    path ??= ctx.layout.topicPath(access.agent, topic, category);
    const title = noteName(path);
    const heading = TOPIC_HEADINGS[entryKind];
    const text = String(args.text);
    interface Outcome {
      created: boolean;
      restates?: TopicEntry;
      supersedes?: TopicEntry;
      reason?: "polarity" | "value";
    }
    const { written: added, result } = await write<Outcome>(deps, path, (current) => {
      const created = current === null || current.trim() === "";
      // The statement rule, as extraction applies it (docs/contradictions.md, "The rule").
      const against = current === null ? null : calloutAgainst(current, entryKind, text);
      if (against?.outcome === "restatement")
        return { content: current, result: { created, restates: against.entry } };
      const old = against?.outcome === "change" ? against.entry : undefined;
      const appended = appendCallout(
        current,
        {
          title,
          agent: access.agent,
          category: path.split("/").slice(-2, -1)[0],
          type: "knowledge",
          createdAt: localTimestamp(new Date(deps.now())),
          path,
        },
        {
          kind: entryKind,
          heading,
          date: todayOf(deps.now()),
          confidence: args.confidence as number,
          text,
          source: typeof args.source === "string" ? args.source.trim() : "",
        },
        old,
      );
      return {
        content: appended.text,
        result: {
          created,
          ...(old ? { supersedes: { ...old, id: appended.oldId ?? old.id } } : {}),
          ...(against?.reason ? { reason: against.reason } : {}),
        },
      };
    });
    const { created } = result;
    const link = formatWikilink({ path, heading });
    const supersedes = added && result.supersedes ? calloutName(path, result.supersedes) : null;
    const restates = result.restates ? calloutName(path, result.restates) : null;
    const said = restates
      ? `already in ${path}: restates ${restates}`
      : `${added ? "added to" : "already in"} ${path}${created ? " (new topic note)" : ""}${
          supersedes
            ? `, ${supersessionLabel({ id: supersedes, text: "", reason: result.reason ?? "value" })}`
            : ""
        }`;
    return {
      text: `${said} ${link}`,
      data: {
        path,
        link,
        created,
        added,
        ...(supersedes ? { supersedes } : {}),
      },
    };
  },
};

/**
 * The current callout of `kind` in a topic note that `text` restates or changes by the statement
 * rule (`compareStatements`), or `null`: a restatement is not added, a change supersedes it.
 */
function calloutAgainst(
  note: string,
  kind: EntryKind,
  text: string,
): { outcome: "restatement" | "change"; entry: TopicEntry; reason?: "polarity" | "value" } | null {
  const live = listTopicEntries(note).filter((e) => e.kind === kind && !isSuperseded(e.fields));
  const same = live[findRestatement(text, live, (e) => e.text)];
  if (same) return { outcome: "restatement", entry: same };
  const changed = live[findContradiction(text, live, (e) => e.text)];
  if (!changed) return null;
  return {
    outcome: "change",
    entry: changed,
    reason: contradiction(text, changed.text) ?? "value",
  };
}

/** How a result names a callout: `^c-1a2b`, or the first words of its text when it has no id. */
function calloutName(path: string, e: TopicEntry): string {
  return e.id ? `^${e.id}` : `"${e.text}" in ${path}`;
}

const health: ToolSpec = {
  name: "health",
  description:
    "Health check of the memory: errors and warnings per note (missing fields, broken links, stale notes, due reviews).",
  input: {},
  output: {
    checked: z.number(),
    compliant: z.number(),
    compliance: z.number(),
    errors: anyList,
    warnings: anyList,
  },
  hints: READ,
  async run(_args, deps) {
    const { ctx, access } = deps;
    const nowMs = deps.now();
    const report = toHealthJson(
      await runHealthCheck(ctx.vault, ctx.layout, ctx.settings, { today: todayOf(nowMs), nowMs }),
    );
    // Problems of isolated zones this server may not reach are not shown (their paths say too much).
    const shown = (p: { path: string }) => access.zoneAllowed(ctx.layout.zoneOf(p.path));
    const data = {
      ...report,
      errors: report.errors.filter(shown),
      warnings: report.warnings.filter(shown),
    };
    const lines = [
      `${data.checked} notes checked, ${data.compliant} compliant (${Math.round(data.compliance * 100)}%); ${data.errors.length} errors, ${data.warnings.length} warnings`,
    ];
    for (const p of [
      ...data.errors.map((e) => ({ ...e, s: "error" })),
      ...data.warnings.map((w) => ({ ...w, s: "warning" })),
    ].slice(0, 40)) {
      lines.push(`- ${p.s} ${p.rule} ${p.path}${p.line ? `:${p.line}` : ""}: ${p.message}`);
    }
    return { text: lines.join("\n"), data: data as unknown as Record<string, unknown> };
  },
};

const status: ToolSpec = {
  name: "status",
  description:
    "Server and index status: notes indexed, changes pending, last change seen, index age.",
  input: {},
  output: {
    agent: z.string(),
    notes: z.number(),
    pending: z.number(),
    last_change: z.object({ path: z.string(), at: z.string() }).nullable(),
    index_age_s: z.number(),
    watching: z.boolean(),
  },
  hints: READ,
  async run(_args, deps) {
    const s = deps.live.status();
    const now = deps.now();
    const data = {
      agent: deps.access.agent,
      zones: [...deps.access.zones],
      notes: s.notes,
      pending: s.pending,
      last_change: s.lastChange
        ? { path: s.lastChange.path, at: new Date(s.lastChange.at).toISOString() }
        : null,
      index_source: s.source,
      opened_at: new Date(s.openedAt).toISOString(),
      saved_at: s.savedAt === null ? null : new Date(s.savedAt).toISOString(),
      index_age_s: Math.round((now - (s.savedAt ?? s.openedAt)) / 100) / 10,
      unsaved_changes: s.unsaved,
      watching: s.watching,
    };
    const text = `${data.notes} notes indexed (${data.pending} changes pending), index ${data.index_source} ${data.opened_at}, saved ${data.saved_at ?? "not since"}; last change ${data.last_change ? `${data.last_change.path} at ${data.last_change.at}` : "none"}; watcher ${data.watching ? "on" : "off"}`;
    return { text, data };
  },
};

/** Every tool, in the order the tool list shows them. */
export const TOOLS: readonly ToolSpec[] = [
  brief,
  search,
  readNote,
  appendJournal,
  extract,
  listTrackers,
  addTracker,
  updateTracker,
  addKnowledge,
  health,
  status,
  ...INBOX_TOOLS,
];

/**
 * Runs a tool's handler and puts its outcome in MCP's shape: text and `structuredContent`, or a tool
 * error with a one-line reason (a bug is also logged with its stack on stderr). Never throws.
 */
export async function runTool(
  spec: ToolSpec,
  args: Record<string, unknown>,
  deps: ToolDeps,
  log: (line: string) => void,
) {
  try {
    const out = await spec.run(args, deps);
    return { content: [{ type: "text" as const, text: out.text }], structuredContent: out.data };
  } catch (err) {
    if (!(err instanceof MemoryError))
      log(`mcp: ${spec.name}: ${oneLine(String((err as Error)?.stack ?? err))}`);
    return {
      content: [{ type: "text" as const, text: oneLine(`${spec.name}: ${errorMessage(err)}`) }],
      isError: true,
    };
  }
}
