/** `append_journal` (docs/mcp.md, "Tools"): a Markdown block appended to today's journal of the agent. */
import { z } from "zod";
import { appendJournalBlock } from "../../core/journal/append";
import { today as todayOf } from "../../core/util/dates";
import { checkBlockText } from "../../core/trackers/validate";
import { ADD, defineTool, noteLink, valid, write } from "./common";

export const appendJournal = defineTool({
  name: "append_journal",
  title: "Append to the journal",
  description:
    "Append a Markdown block to today's journal of this agent (created if missing). Returns its block id and link.",
  input: {
    text: z
      .string()
      .min(1)
      .describe("Markdown: a paragraph, list items, a callout; [field:: value] kept"),
  },
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
    const text = valid(checkBlockText("text", args.text));
    const day = todayOf(deps.now());
    const path = ctx.layout.journalPath(access.agent, day);
    const {
      result: { ids, created },
    } = await write(deps, path, (current) => {
      const appended = appendJournalBlock(current, text, {
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
});
