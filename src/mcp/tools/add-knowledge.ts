/**
 * `add_knowledge` (docs/mcp.md, "Tools"): an insight, pattern or decision callout on a topic note of
 * the agent, creating the note. Every argument is checked first (docs/mcp.md, "What a write tool
 * refuses"); the callout goes through the statement rule (docs/contradictions.md, "The rule"), as
 * extraction's do: a restatement is not added, a change supersedes.
 */
import { z } from "zod";
import {
  contradiction,
  findContradiction,
  findRestatement,
  supersessionLabel,
} from "../../core/extraction/contradiction";
import { appendCallout } from "../../core/extraction/write-item";
import { isSuperseded } from "../../core/knowledge/supersede";
import {
  listTopicEntries,
  topicKey,
  type EntryKind,
  type TopicEntry,
} from "../../core/knowledge/topic";
import { formatWikilink, noteName } from "../../core/markdown/wikilinks";
import { TOPIC_HEADINGS } from "../../core/knowledge/callouts";
import { checkCategory, checkLink, checkText } from "../../core/trackers/validate";
import { localTimestamp, today as todayOf } from "../../core/util/dates";
import { REPLACE, defineTool, valid, write } from "./common";

export const addKnowledge = defineTool({
  name: "add_knowledge",
  title: "Add knowledge",
  description:
    "Add an insight, pattern or decision callout to a topic note of this agent (made if missing); a change supersedes, a restatement is skipped.",
  input: {
    topic: z.string().min(1).describe("the topic note's name; an existing one is found by name"),
    text: z.string().min(1).describe("the statement; no trailing ^id"),
    kind: z.enum(["insight", "pattern", "decision"]).optional().describe("default insight"),
    confidence: z.number().min(0).max(1).describe("0 to 1"),
    source: z.string().optional().describe("link to the evidence: note or note#^block"),
    category: z.string().optional().describe("a knowledge category of the vault, for a new note"),
  },
  output: {
    path: z.string(),
    link: z.string(),
    created: z.boolean(),
    added: z.boolean(),
    supersedes: z.string().optional(),
  },
  hints: REPLACE,
  async run(args, deps) {
    const { access, ctx, live } = deps;
    const topic = valid(checkText("topic", args.topic));
    const text = valid(checkText("text", args.text));
    const source = args.source === undefined ? "" : valid(checkLink("source", args.source));
    const category =
      args.category === undefined
        ? undefined
        : valid(checkCategory(ctx.settings.knowledgeCategories, args.category));
    const entryKind = args.kind ?? "insight";
    const folder = `${ctx.layout.knowledgeFolder(access.agent)}/`;
    const key = topicKey(topic);
    let path: string | undefined;
    for (const p of live.notePaths())
      if (p.startsWith(folder) && topicKey(noteName(p)) === key) path = p;
    path ??= ctx.layout.topicPath(access.agent, topic, category);
    const at = path;
    const title = noteName(at);
    const heading = TOPIC_HEADINGS[entryKind];
    interface Outcome {
      created: boolean;
      restates?: TopicEntry;
      supersedes?: TopicEntry;
      reason?: "polarity" | "value";
    }
    const { written: added, result } = await write<Outcome>(deps, at, (current) => {
      const created = current === null || current.trim() === "";
      const against = current === null ? null : calloutAgainst(current, entryKind, text);
      if (against?.outcome === "restatement")
        return { content: current, result: { created, restates: against.entry } };
      const old = against?.outcome === "change" ? against.entry : undefined;
      const appended = appendCallout(
        current,
        {
          title,
          agent: access.agent,
          category: at.split("/").slice(-2, -1)[0],
          type: "knowledge",
          createdAt: localTimestamp(new Date(deps.now())),
          path: at,
        },
        {
          kind: entryKind,
          heading,
          date: todayOf(deps.now()),
          confidence: args.confidence,
          text,
          source,
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
    const link = formatWikilink({ path: at, heading });
    const supersedes = added && result.supersedes ? calloutName(at, result.supersedes) : null;
    const restates = result.restates ? calloutName(at, result.restates) : null;
    const said = restates
      ? `already in ${at}: restates ${restates}`
      : `${added ? "added to" : "already in"} ${at}${created ? " (new topic note)" : ""}${
          supersedes
            ? `, ${supersessionLabel({ id: supersedes, text: "", reason: result.reason ?? "value" })}`
            : ""
        }`;
    return {
      text: `${said} ${link}`,
      data: { path: at, link, created, added, ...(supersedes ? { supersedes } : {}) },
    };
  },
});

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
