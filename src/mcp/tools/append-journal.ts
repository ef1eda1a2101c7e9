/** `append_journal` (docs/mcp.md, "Tools"): a Markdown block appended to today's journal of the agent. */
import { z } from "zod";
import { UsageError } from "../../core/errors";
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
    agent: z
      .string()
      .optional()
      .describe("this server's agent; another is refused (it writes only its own journal)"),
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
    // The server writes as its agent, never as one a call names (docs/mcp.md, "Tools").
    if (args.agent !== undefined && args.agent !== access.agent)
      throw new UsageError(
        `this server writes only the journal of agent "${access.agent}", not of "${args.agent}" (the agent is the server's: mcp --agent, or the HTTP token's); nothing written`,
      );
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
