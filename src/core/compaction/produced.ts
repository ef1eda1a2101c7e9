/**
 * What journals produced (docs/compaction.md): every tracker item and topic callout of an agent that
 * cites a journal block as its source (`[source:: [[journal#^am-…]]]` on a tracker line, a link in a
 * progress note under it, `> Source: [[journal#^am-…]]` in a callout), indexed by the block it cites. Links are resolved as Obsidian
 * resolves them ({@link LinkResolver}), so the full vault path, a path under the memory root and a
 * bare journal name all reach the same block.
 */
import { CATEGORIES, type Category } from "../extraction/types";
import { sourceLink } from "../extraction/destination-match";
import {
  LinkResolver,
  parseWikilinkTarget,
  replaceWikilinks,
  wikilinkTargets,
} from "../markdown/wikilinks";
import { entryTextKey, listTopicEntries } from "../knowledge/callouts";
import type { MemoryLayout } from "../layout";
import { TRACKER_KINDS, type Settings, type TrackerKind } from "../settings";
import { FIELD_KEYS, fieldValue } from "../trackers/fields";
import { listItems, type TrackerStatus } from "../trackers/format";
import type { VaultPort } from "../vault";

/** One item a journal block produced. */
export interface ProducedItem {
  category: Category;
  /** The item's text, whitespace collapsed. */
  text: string;
  /** Wikilink to the item itself: its tracker line (`[[…/Tasks#^t-005]]`) or its topic note. */
  itemLink: string;
  /** Vault path of the tracker or topic note holding it. */
  itemPath: string;
  /** Tracker status, for tracker items. */
  status?: TrackerStatus;
  /** Vault path of the journal cited. */
  journal: string;
  /** Block id cited (without `^`). */
  blockId: string;
}

/** Category of a callout kind extraction writes (README, "Note formats in brief"): insight, pattern, decision. */
const CALLOUT_CATEGORY: Readonly<Record<string, Category>> = {
  insight: "knowledge",
  pattern: "pattern",
  decision: "decision",
};

/** Category a tracker kind holds when no destination setting names it (the README's category table). */
const TRACKER_CATEGORY: Readonly<Record<TrackerKind, Category | null>> = {
  tasks: "task",
  goals: "goal",
  proposals: "improvement",
  questions: "question",
  decisions: "decision",
  reviews: null,
};

/**
 * The category of items in the tracker of `kind`: the one category whose destination setting is
 * `tracker:<kind>`, else the README table's default; `null` for a tracker no category goes to (reviews).
 */
export function trackerCategory(settings: Settings, kind: TrackerKind): Category | null {
  const routed = CATEGORIES.filter((c) => settings.destinations[c] === `tracker:${kind}`);
  return routed.length === 1 ? (routed[0] ?? null) : TRACKER_CATEGORY[kind];
}

/** Key of a cited block: the journal's vault path and the block id, lower case. */
export function blockKey(journal: string, blockId: string): string {
  return `${journal}#^${blockId.toLowerCase()}`;
}

/** Items by cited block ({@link blockKey}), in the order found (trackers first, then topic notes). */
export type ProducedIndex = Map<string, ProducedItem[]>;

/**
 * Reads the agent's trackers and topic notes and indexes every item by the journal block it cites.
 * `vaultPaths` are all the vault's notes (for link resolution). An item citing several blocks is
 * listed under each. A decision written both to the log and to its topic's `## Decisions` is kept
 * once per block (the tracker line). Notes that cannot be read stop the run with their
 * {@link VaultError}.
 */
export async function indexProducedItems(
  vault: VaultPort,
  layout: MemoryLayout,
  settings: Settings,
  agent: string,
  vaultPaths: readonly string[],
): Promise<ProducedIndex> {
  const resolver = new LinkResolver(vaultPaths);
  const index: ProducedIndex = new Map();
  const seen = new Set<string>();
  const add = (
    item: Omit<ProducedItem, "journal" | "blockId">,
    from: string,
    targets: readonly string[],
  ) => {
    for (const target of targets) {
      const link = parseWikilinkTarget(target);
      if (!link.blockId) continue;
      const journal = resolver.resolve(link.path, from);
      if (journal === null) continue;
      const key = blockKey(journal, link.blockId);
      const dedupe = `${key}\u0000${item.category}\u0000${entryTextKey(item.text)}`;
      if (seen.has(dedupe)) continue;
      seen.add(dedupe);
      const list = index.get(key) ?? [];
      list.push({ ...item, journal, blockId: link.blockId });
      index.set(key, list);
    }
  };
  for (const kind of TRACKER_KINDS) {
    const category = trackerCategory(settings, kind);
    if (category === null) continue;
    const path = layout.trackerPath(agent, kind);
    if (!(await vault.exists(path))) continue;
    for (const item of listItems(await vault.read(path))) {
      const itemLink = sourceLink(path, item.id);
      const source = fieldValue(item.fields, FIELD_KEYS.source);
      if (source !== null)
        add(
          { category, text: item.text, itemLink, itemPath: path, status: item.status },
          path,
          wikilinkTargets(source),
        );
      // A progress note under a goal cites its block in the line: `- 2026-11-27: … ([[journal#^am-…]])`.
      for (const child of item.children) {
        const targets = wikilinkTargets(child);
        if (targets.length === 0) continue;
        const note = replaceWikilinks(child, () => "")
          .replace(/\(\s*\)/g, "")
          .replace(/^[ \t]*[-*+][ \t]+/, "")
          .replace(/\s+/g, " ")
          .trim();
        add(
          {
            category,
            text: `Progress on "${item.text}": ${note}`,
            itemLink,
            itemPath: path,
            status: item.status,
          },
          path,
          targets,
        );
      }
    }
  }
  const topics = (await vault.list(layout.knowledgeFolder(agent))).map((f) => f.path).sort();
  for (const path of topics) {
    for (const entry of listTopicEntries(await vault.read(path))) {
      const category = CALLOUT_CATEGORY[entry.kind];
      if (category === undefined) continue;
      add(
        {
          category,
          text: entry.text.replace(/\s+/g, " ").trim(),
          itemLink: sourceLink(path, null),
          itemPath: path,
        },
        path,
        entry.sources,
      );
    }
  }
  return index;
}
