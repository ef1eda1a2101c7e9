/**
 * Gathers the lines of a session brief
 * (docs/decisions.md, "The brief uses plain bullets, not checkboxes") from the trackers, the due
 * reviews and a search, each section in the order it is
 * shown (best first). Every rule comes from where the rest of the tool keeps it: tracker parsing
 * (`listItems`), "open" = open or in progress (`isOpenStatus` of src/core/trackers/status.ts, the
 * `trackers` command's rule, README "Tracker items"), fields (`fieldValue`, `priorityWord`), a
 * goal's latest progress (`latestProgressText` of src/core/trackers/status.ts), due reviews (`listDueReviews`), links (`sourceLink`), knowledge
 * ranking (the search service's score: BM25 times recency and confidence,
 * src/core/search/ranking.ts).
 */
import type { MemoryLayout } from "../layout";
import type { TrackerKind } from "../settings";
import { readOrLeaveOut, type VaultPort } from "../vault";
import type { IsoDate } from "../util/dates";
import { UsageError, type UnreadableNote } from "../errors";
import { listItems, type TrackerItem } from "../trackers/format";
import { isOpenStatus, isOverdue, latestProgressText } from "../trackers/status";
import {
  FIELD_KEYS,
  PRIORITY_WORDS,
  fieldValue,
  itemDate,
  namesIn,
  otherOwner,
  priorityWord,
} from "../trackers/fields";
import { recipients } from "../inbox/address";
import { listDueReviews } from "../review/due";
import { sourceLink } from "../extraction/destination-match";
import { listTopicEntries, type TopicEntry } from "../knowledge/callouts";
import { SUPERSEDES_KEY, isSuperseded } from "../knowledge/supersede";
import { staleTopicsOf, type StaleCacheStore } from "../health/stale-rules";
import { MAX_ITEM_CHARS, type BriefItem, type BriefSearchFn, type BriefSectionKind } from "./types";
import { truncateLine } from "../markdown/text";
import { knownAgents } from "../init";

/** A section's items (best first) and its total before any cut. */
export interface Collected {
  items: BriefItem[];
  total: number;
}

/** Collapses whitespace and cuts to {@link MAX_ITEM_CHARS} characters with `…` ({@link truncateLine}). */
function oneLine(text: string, max = MAX_ITEM_CHARS): string {
  return truncateLine(text, max);
}

/** A field's value by the one rule of `fieldValue` (case ignored, the last one wins). */
function field(item: TrackerItem, key: string): string | undefined {
  return fieldValue(item.fields, key) ?? undefined;
}

/** Open or in progress: the `trackers` command's "open" (README, "Tracker items"). */
function isOpen(item: TrackerItem): boolean {
  return isOpenStatus(item.status);
}

async function readItems(
  vault: VaultPort,
  layout: MemoryLayout,
  agent: string,
  kind: TrackerKind,
  unreadable: UnreadableNote[],
): Promise<{ path: string; items: TrackerItem[] } | null> {
  const path = layout.trackerPath(agent, kind);
  if (!(await vault.exists(path))) return null;
  const text = await readOrLeaveOut(vault, path, unreadable);
  return text === null ? null : { path, items: listItems(text) };
}

function base(kind: BriefSectionKind, path: string, item: TrackerItem): Omit<BriefItem, "line"> {
  return {
    kind,
    text: oneLine(item.text),
    link: sourceLink(path, item.id),
    path,
    id: item.id,
    status: item.status,
  };
}

function withLine(
  item: Omit<BriefItem, "line">,
  extras: (string | false | undefined)[],
  prefix = "",
): BriefItem {
  const notes = extras.filter((e): e is string => typeof e === "string" && e !== "");
  return {
    ...item,
    line: `- ${prefix}${item.text}${notes.length > 0 ? ` — ${notes.join("; ")}` : ""} ${item.link}`,
  };
}

const byOptional = <T extends string | number>(a: T | undefined, b: T | undefined): number =>
  a === b ? 0 : a === undefined ? 1 : b === undefined ? -1 : a < b ? -1 : 1;

/**
 * Open tasks of the agent: its own and those another agent's tracker gives it (`[owner:: agent]`,
 * shown `from atlas: …`), overdue first (oldest due first), then by priority (Tasks' words,
 * highest first, as `priorityWord` reads them; none after low), then due date, then note order;
 * after them the tasks of its tracker that someone else owns (`for dana: …`), which are never
 * shown as its own overdue work (test/core/brief/brief-owners.test.ts). `agents`: the vault's
 * agents when the caller has listed them ({@link knownAgents}), else they are listed here.
 */
export async function collectTasks(
  vault: VaultPort,
  layout: MemoryLayout,
  agent: string,
  today: IsoDate,
  unreadable: UnreadableNote[] = [],
  agents?: readonly string[],
): Promise<Collected> {
  const sources: { path: string; items: TrackerItem[]; from: string | null }[] = [];
  const own = await readItems(vault, layout, agent, "tasks", unreadable);
  if (own) sources.push({ ...own, from: null });
  const me = agent.toLowerCase();
  const others = (agents ?? (await knownAgents(vault, layout))).filter((a) => a !== agent);
  for (const other of others) {
    const t = await readItems(vault, layout, other, "tasks", unreadable);
    if (!t) continue;
    const mine = t.items.filter((item) =>
      namesIn(field(item, FIELD_KEYS.owner)).some((n) => n.toLowerCase() === me),
    );
    if (mine.length > 0) sources.push({ path: t.path, items: mine, from: other });
  }
  const rows = sources.flatMap(({ path, items, from }, source) =>
    items.filter(isOpen).map((item) => {
      const due = field(item, FIELD_KEYS.due);
      const priority = priorityWord(field(item, FIELD_KEYS.priority) ?? "") ?? undefined;
      const owner = from === null ? otherOwner(item.fields, agent) : null;
      return {
        item,
        path,
        from,
        owner,
        source,
        due,
        priority,
        rank: priority === undefined ? undefined : PRIORITY_WORDS.indexOf(priority),
        overdue: due !== undefined && isOverdue(due, today),
      };
    }),
  );
  // Someone else's task in the agent's tracker is not the agent's own overdue work.
  const urgent = (r: (typeof rows)[number]): boolean => r.overdue && r.owner === null;
  rows.sort(
    (a, b) =>
      Number(a.owner !== null) - Number(b.owner !== null) ||
      Number(urgent(b)) - Number(urgent(a)) ||
      (urgent(a) ? byOptional(a.due, b.due) : 0) ||
      byOptional(a.rank, b.rank) ||
      byOptional(a.due, b.due) ||
      a.source - b.source ||
      a.item.line - b.item.line,
  );
  const items = rows.map(({ item, path, from, owner, due, priority, overdue }) =>
    withLine(
      {
        ...base("tasks", path, item),
        ...(due !== undefined ? { due, overdue } : {}),
        ...(priority !== undefined ? { priority } : {}),
        ...(from !== null
          ? { owner: agent, direction: "to" as const, counterpart: from }
          : owner !== null
            ? { owner, direction: "from" as const, counterpart: owner }
            : {}),
      },
      [
        item.status === "in-progress" && "in progress",
        overdue && owner === null ? `OVERDUE, due ${due}` : due !== undefined && `due ${due}`,
        priority !== undefined && `${priority} priority`,
      ],
      from !== null ? `from ${from}: ` : owner !== null ? `for ${owner}: ` : "",
    ),
  );
  return { items, total: items.length };
}

/** Open goals with their latest progress, nearest target first, then note order. */
export async function collectGoals(
  vault: VaultPort,
  layout: MemoryLayout,
  agent: string,
  unreadable: UnreadableNote[] = [],
): Promise<Collected> {
  const g = await readItems(vault, layout, agent, "goals", unreadable);
  if (!g) return { items: [], total: 0 };
  const open = g.items
    .filter(isOpen)
    .sort(
      (a, b) =>
        byOptional(field(a, FIELD_KEYS.target), field(b, FIELD_KEYS.target)) || a.line - b.line,
    );
  const items = open.map((item) => {
    const target = field(item, FIELD_KEYS.target);
    const latest = latestProgressText(item);
    return withLine(
      {
        ...base("goals", g.path, item),
        ...(target !== undefined ? { target } : {}),
        ...(latest !== null ? { latest: oneLine(latest) } : {}),
      },
      [
        item.status === "in-progress" && "in progress",
        target !== undefined && `target ${target}`,
        latest !== null && `latest ${oneLine(latest)}`,
      ],
    );
  });
  return { items, total: items.length };
}

/** Due reviews of the agent, most overdue first (`listDueReviews`). */
export async function collectReviews(
  vault: VaultPort,
  layout: MemoryLayout,
  agent: string,
  today: IsoDate,
  unreadable: UnreadableNote[] = [],
): Promise<Collected> {
  const due = await listDueReviews(vault, layout, today, agent, unreadable);
  const items = due.map(({ path, review: r }) =>
    withLine(
      {
        kind: "reviews",
        text: oneLine(r.text),
        link: sourceLink(path, r.id),
        path,
        id: r.id,
        status: r.status,
        next: r.next,
        daysOverdue: r.daysOverdue,
      },
      [
        r.daysOverdue === 0
          ? `due today (${r.next})`
          : `due since ${r.next}, ${r.daysOverdue} day${r.daysOverdue === 1 ? "" : "s"}`,
        r.everyRaw !== null && `every ${r.everyRaw}`,
      ],
    ),
  );
  return { items, total: items.length };
}

/**
 * Open questions or proposals to the agent (in another agent's tracker, `[to:: …]` naming it) and
 * from it (its own tracker), those to it first; each group oldest first (by `created`), then by
 * agent and note order. `agents`: the vault's agents when the caller has listed them
 * ({@link knownAgents}), else they are listed here.
 */
export async function collectExchanges(
  vault: VaultPort,
  layout: MemoryLayout,
  agent: string,
  kind: "questions" | "proposals",
  unreadable: UnreadableNote[] = [],
  agents?: readonly string[],
): Promise<Collected> {
  const others = (agents ?? (await knownAgents(vault, layout))).filter((a) => a !== agent);
  const rows: { item: BriefItem; created: string | undefined; order: number }[] = [];
  const me = agent.toLowerCase();
  for (const other of others) {
    const t = await readItems(vault, layout, other, kind, unreadable);
    for (const item of t?.items ?? []) {
      if (
        !t ||
        !isOpen(item) ||
        !recipients(field(item, FIELD_KEYS.to)).some((r) => r.toLowerCase() === me)
      )
        continue;
      const created = field(item, FIELD_KEYS.created);
      const b = {
        ...base(kind, t.path, item),
        direction: "to" as const,
        counterpart: other,
        ...(created ? { date: created } : {}),
      };
      rows.push({ item: withLine(b, [], `from ${other}: `), created, order: 0 });
    }
  }
  const own = await readItems(vault, layout, agent, kind, unreadable);
  for (const item of own?.items ?? []) {
    if (!own || !isOpen(item)) continue;
    const to = recipients(field(item, FIELD_KEYS.to));
    const created = field(item, FIELD_KEYS.created);
    const b = {
      ...base(kind, own.path, item),
      direction: "from" as const,
      ...(to.length > 0 ? { counterpart: to.join(", ") } : {}),
      ...(created ? { date: created } : {}),
    };
    rows.push({
      item: withLine(b, [], to.length > 0 ? `to ${to.join(", ")}: ` : ""),
      created,
      order: 1,
    });
  }
  // Stable sort: within a group and date, the agents' and the notes' order stays.
  rows.sort((a, b) => a.order - b.order || byOptional(a.created, b.created));
  return { items: rows.map((r) => r.item), total: rows.length };
}

/**
 * Decisions in force (not reversed, `[-]`, nor superseded: docs/contradictions.md), newest first
 * by `decided`, else `created`, else `date` (undated ones last, later lines first). One that
 * supersedes another links to it (`history: [[…#^d-001]]`). Only the `limit` newest are
 * considered; `total` counts all.
 */
export async function collectDecisions(
  vault: VaultPort,
  layout: MemoryLayout,
  agent: string,
  limit: number,
  unreadable: UnreadableNote[] = [],
): Promise<Collected> {
  const d = await readItems(vault, layout, agent, "decisions", unreadable);
  if (!d) return { items: [], total: 0 };
  const rows = d.items
    .filter((i) => i.status !== "abandoned" && !isSuperseded(i.fields))
    .map((item) => ({
      item,
      date: itemDate(item) ?? undefined,
    }));
  rows.sort((a, b) => {
    if (a.date === b.date) return b.item.line - a.item.line;
    if (a.date === undefined || b.date === undefined) return a.date === undefined ? 1 : -1;
    return a.date > b.date ? -1 : 1;
  });
  const items = rows.slice(0, limit).map(({ item, date }) => {
    const history = fieldValue(item.fields, SUPERSEDES_KEY)?.trim();
    return withLine(
      {
        ...base("decisions", d.path, item),
        ...(date ? { date } : {}),
        ...(history ? { supersedes: history } : {}),
      },
      [history && `history: ${history}`],
      date ? `${date}: ` : "",
    );
  });
  return { items, total: rows.length };
}

/**
 * The search query of the knowledge section: the user's query (if any) limited to the agent's
 * knowledge folder and the library by `path:` filters (the layout's folders, so a note without a
 * `type` still counts). With no free text the search lists the newest notes first.
 */
export function knowledgeQuery(
  layout: MemoryLayout,
  agent: string,
  query: string | undefined,
): string {
  const path = (p: string) => (/[\s"]/.test(p) ? `path:"${p}/"` : `path:${p}/`);
  return [query?.trim() ?? "", path(layout.knowledgeFolder(agent)), path(layout.libraryRoot)]
    .filter((s) => s !== "")
    .join(" ");
}

/** The callout with the latest date of a note (the later one on a tie), or `undefined`; a note that cannot be read has none. */
async function newestEntry(vault: VaultPort, path: string): Promise<TopicEntry | undefined> {
  let text: string;
  try {
    text = await vault.read(path);
  } catch {
    return undefined; // the search's snippet stands in for it
  }
  let best: TopicEntry | undefined;
  for (const e of listTopicEntries(text))
    if (!isSuperseded(e.fields) && (best === undefined || (e.date ?? "") >= (best.date ?? "")))
      best = e;
  return best;
}

/**
 * Knowledge and library notes relevant to `query` (or the newest), in the search's order, one line
 * per note from its best block (with no free text: its newest callout): a callout's text with its
 * confidence and date, else the block or the snippet. `total` is the search's total. Throws {@link UsageError} for a query the search
 * refuses (an unknown filter, a bad date).
 */
export async function collectKnowledge(
  search: BriefSearchFn,
  vault: VaultPort,
  layout: MemoryLayout,
  agent: string,
  query: string | undefined,
  limit: number,
): Promise<Collected> {
  const outcome = await search(knowledgeQuery(layout, agent, query), {
    scope: `agent:${agent}`,
    limit,
    blocksPerResult: 2,
  });
  if (!outcome.ok) throw new UsageError(`brief: ${outcome.error}`);
  const items: BriefItem[] = [];
  for (const hit of outcome.value.results) {
    // A heading alone ("# 续费流程") says no more than the title: the next block does.
    // A superseded callout is history: the current one, or the next block, stands for the note.
    const current = hit.blocks.filter(
      (b) => !isSuperseded(listTopicEntries(b.text)[0]?.fields ?? []),
    );
    const block =
      current.find((b) => !/^#{1,6}[ \t]/.test(b.text.trim())) ?? current[0] ?? hit.blocks[0];
    // A listing by date (no free text) has no matched block: the note's newest callout stands for it.
    const entry = block ? listTopicEntries(block.text)[0] : await newestEntry(vault, hit.path);
    const text = oneLine(entry?.text ?? block?.text ?? hit.snippet) || oneLine(hit.title);
    const date = entry?.date ?? hit.date;
    const confidence = entry?.confidence ?? undefined;
    const link = sourceLink(hit.path, block?.id ?? null);
    const history = entry ? fieldValue(entry.fields, SUPERSEDES_KEY)?.trim() : undefined;
    const notes = [
      confidence !== undefined && confidence !== null ? `confidence ${confidence}` : "",
      date ?? "",
      history ? `history: ${history}` : "",
    ].filter((s) => s !== "");
    items.push({
      kind: "knowledge",
      text,
      link,
      path: hit.path,
      id: block?.id ?? null,
      ...(date ? { date } : {}),
      score: hit.score,
      ...(confidence !== undefined && confidence !== null ? { confidence } : {}),
      ...(history ? { supersedes: history } : {}),
      line: `- ${oneLine(hit.title, 80)}: ${text}${notes.length > 0 ? ` (${notes.join(", ")})` : ""} ${link}`,
    });
  }
  return { items, total: Math.max(outcome.value.total, items.length) };
}

/** Block links a "may be stale" line names; the rest are counted. */
const STALE_BLOCKS_SHOWN = 3;

/**
 * Knowledge and library notes that the agent's journal blocks newer than their last update mention
 * ({@link staleTopicsOf}), most such blocks first, then by path. Each line names the latest blocks
 * and ends with the note's link. `cache`: where the scan keeps what each note gave it ({@link StaleCacheStore}).
 */
export async function collectStale(
  vault: VaultPort,
  layout: MemoryLayout,
  agent: string,
  today: IsoDate,
  unreadable: UnreadableNote[] = [],
  cache?: StaleCacheStore,
): Promise<Collected> {
  const stale = await staleTopicsOf(vault, layout, agent, today, unreadable, cache);
  stale.sort((a, b) => b.blocks.length - a.blocks.length || (a.path < b.path ? -1 : 1));
  const items = stale.map((t): BriefItem => {
    const n = t.blocks.length;
    const latest = t.blocks
      .slice(-STALE_BLOCKS_SHOWN)
      .reverse()
      .map((b) => b.link);
    const link = sourceLink(t.path, null);
    const more = n > latest.length ? ` and ${n - latest.length} more` : "";
    return {
      kind: "stale",
      text: oneLine(t.title, 80),
      link,
      path: t.path,
      id: null,
      date: t.last,
      line: `- ${oneLine(t.title, 80)}: updated ${t.last}, since then mentioned in ${n} journal block${n === 1 ? "" : "s"}: ${latest.join(", ")}${more} ${link}`,
    };
  });
  return { items, total: items.length };
}
