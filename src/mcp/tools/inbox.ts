/** `inbox` (docs/inbox.md): questions and proposals other agents addressed to this agent, still open. */
import { knownAgents } from "../../core/init";
import { listInbox } from "../../core/inbox/inbox";
import { READ, defineTool } from "./common";

export const inbox = defineTool({
  name: "inbox",
  title: "Inbox",
  description:
    "Questions and proposals other agents addressed to this agent, still waiting for an answer.",
  input: {},
  hints: READ,
  async run(_args, deps) {
    const { ctx, access } = deps;
    const agents = await knownAgents(ctx.vault, ctx.layout);
    const items = await listInbox(ctx.vault, ctx.layout, agents, {
      person: false,
      name: access.agent,
    });
    const lines = items.length
      ? items.map(
          (it) =>
            `${it.id} from ${it.from} (${it.kind === "questions" ? "question" : "proposal"}, ${it.state}): ${it.text} ${it.link}`,
        )
      : [`inbox of ${access.agent}: empty`];
    return { text: lines.join("\n"), data: { agent: access.agent, items } };
  },
});
