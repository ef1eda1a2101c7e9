/**
 * The review queue (format in docs/compaction.md): plans that "watch and extract"
 * made from journals left unchanged, waiting for a person. One note per agent,
 * `<agent folder>/Review queue.md`, so the person sees it in Obsidian as well as in the tracker
 * panel's "To review" tab; the MCP server and the plugin write the same note. Entries are appended,
 * never removed: an entry is *pending* while its journal has not been extracted since (its
 * `extraction_hash` does not match its body) and the entry was planned from the journal's current
 * text; reviewing the journal (the review modal, `agent-memory extract`, the MCP `extract` tool)
 * resolves it. The plan itself is made again at review time, against the notes as they are then.
 */
import { parseNote, setFrontmatter } from "../frontmatter";
import { extractionHash } from "../journal/blocks";
import { joinPath, type MemoryLayout } from "../layout";
import type { VaultPort } from "../vault";
import { formatWikilink, noteName } from "../markdown/wikilinks";
import { REVIEW_QUEUE_NAME, REVIEW_QUEUE_TYPE } from "../note-types";

export { REVIEW_QUEUE_NAME, REVIEW_QUEUE_TYPE };

/** One queued plan. */
export interface QueueEntry {
  /** Vault path of the journal. */
  journal: string;
  /** The journal's extraction hash when it was planned ({@link extractionHash} of its body). */
  hash: string;
  /** Local ISO 8601 time it was queued. */
  queued: string;
  /** Extractor that made the plan (`offline`, `openai`). */
  extractor: string;
  /** One line per planned item: `task: text → destination (added)`. */
  items: string[];
}

/** Vault path of the agent's queue note. */
export function reviewQueuePath(layout: MemoryLayout, agent: string): string {
  return layout.under(joinPath(layout.agentRoot(agent), REVIEW_QUEUE_NAME));
}

const MARK =
  /^<!-- agent-memory:queued journal="([^"]*)" hash="([0-9a-f]+)" queued="([^"]*)" extractor="([^"]*)" -->\r?$/;

function attr(value: string): string {
  return value.replace(/["\r\n]/g, " ").replace(/-->/g, "-- >");
}

/** Entries of a queue note, in note order (items as written under each). Never throws. */
export function listQueue(text: string): QueueEntry[] {
  const out: QueueEntry[] = [];
  let current: QueueEntry | null = null;
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\r$/, "");
    const m = MARK.exec(line);
    if (m) {
      current = {
        journal: m[1] ?? "",
        hash: m[2] ?? "",
        queued: m[3] ?? "",
        extractor: m[4] ?? "",
        items: [],
      };
      out.push(current);
      continue;
    }
    if (/^#{1,6}[ \t]/.test(line)) current = null;
    else if (current && line.startsWith("- ")) current.items.push(line.slice(2));
  }
  return out;
}

/**
 * The queue note with `entry` appended (created when `current` is `null` or blank). An entry for the
 * same journal and hash already there: `current` unchanged (a re-run queues nothing twice). Other
 * content is kept byte for byte; the note's line ending is used for the new lines.
 * @throws FrontmatterError when the note's frontmatter does not parse.
 */
export function appendQueueEntry(
  current: string | null,
  entry: QueueEntry,
  meta: { agent: string; path: string },
): string {
  if (
    current !== null &&
    listQueue(current).some((e) => e.journal === entry.journal && e.hash === entry.hash)
  )
    return current;
  const name = noteName(entry.journal);
  const lines = [
    `## ${name} (queued ${entry.queued.slice(0, 16).replace("T", " ")})`,
    `<!-- agent-memory:queued journal="${attr(entry.journal)}" hash="${entry.hash}" queued="${attr(entry.queued)}" extractor="${attr(entry.extractor)}" -->`,
    `Planned from ${formatWikilink({ path: entry.journal })} by the ${entry.extractor} extractor. Review it: the tracker panel's *To review* tab, *Extract from current note* on the journal, or \`agent-memory extract <vault> "${entry.journal}"\`.`,
    "",
    ...entry.items.map((i) => `- ${i.replace(/[\r\n]+/g, " ")}`),
    "",
  ];
  if (current === null || current.trim() === "") {
    const bom = current?.startsWith("\uFEFF") ? "\uFEFF" : "";
    const head = [
      `# Review queue: ${meta.agent}`,
      "",
      "Plans made automatically from journals left unchanged (watch and extract). Nothing here is written to the trackers until a person reviews the journal; entries stay as a record.",
      "",
    ];
    return (
      bom +
      setFrontmatter(
        [...head, ...lines].join("\n"),
        {
          id: `${meta.agent}/review-queue`,
          type: REVIEW_QUEUE_TYPE,
          agent: meta.agent,
          status: "active",
          created_at: entry.queued,
        },
        meta.path,
      )
    );
  }
  parseNote(current, meta.path); // throws FrontmatterError for a note that does not parse
  const eol = current.includes("\r\n") ? "\r\n" : "\n";
  const sep = current.endsWith("\n")
    ? current.endsWith(`${eol}${eol}`)
      ? ""
      : eol
    : `${eol}${eol}`;
  return current + sep + lines.join(eol);
}

/** A queue entry (docs/glossary.md, "Reviews, briefs, digests, inbox": review queue) whose plan still waits for a person. */
export interface PendingQueueEntry extends QueueEntry {
  /** Vault path of the queue note. */
  queuePath: string;
}

/**
 * The entries of `agent`'s queue still pending (see the module comment), one per journal (its
 * latest), oldest first. A journal that is gone or cannot be read is left out.
 * @throws VaultError when the queue note cannot be read.
 */
export async function pendingQueueEntries(
  vault: VaultPort,
  layout: MemoryLayout,
  agent: string,
): Promise<PendingQueueEntry[]> {
  const queuePath = reviewQueuePath(layout, agent);
  if (!(await vault.exists(queuePath))) return [];
  const latest = new Map<string, QueueEntry>();
  for (const e of listQueue(await vault.read(queuePath))) latest.set(e.journal, e);
  const out: PendingQueueEntry[] = [];
  for (const e of latest.values()) {
    let body: string;
    let recorded: unknown;
    try {
      const note = parseNote(await vault.read(e.journal), e.journal);
      body = note.body;
      recorded = note.data?.extraction_hash;
    } catch {
      // A journal gone, unreadable or with broken frontmatter has no review to offer: left out.
      continue;
    }
    const hash = extractionHash(body);
    if (hash === e.hash && recorded !== hash) out.push({ ...e, queuePath });
  }
  return out.sort((a, b) =>
    a.queued < b.queued ? -1 : a.queued > b.queued ? 1 : a.journal < b.journal ? -1 : 1,
  );
}
