/**
 * `answer_inbox_item` (docs/inbox.md): answers, comments on, accepts (a question) or declines an item
 * addressed to this agent, written under the sender's item. Never accepts a proposal: the rule of
 * src/core/inbox/inbox.ts refuses it, and no tool approves anything for the library.
 */
import { z } from "zod";
import { UsageError } from "../../core/errors";
import { knownAgents } from "../../core/init";
import { listInbox } from "../../core/inbox/inbox";
import { answerInboxItem } from "../../core/inbox/respond";
import { checkText } from "../../core/trackers/validate";
import { localTimestamp, today as todayOf } from "../../core/util/dates";
import type { DecideFn, Decided, ProcessFn, VaultPort } from "../../core/vault";
import { REPLACE, defineTool, valid, type ToolDeps } from "./common";

/** Reads as the vault; writes only answers in another agent's questions or proposals tracker. */
function replyVault(deps: ToolDeps): VaultPort {
  const { vault } = deps.access;
  function process(path: string, fn: ProcessFn): Promise<boolean>;
  function process<T>(path: string, fn: DecideFn<T>): Promise<Decided<T>>;
  function process<T>(path: string, fn: ProcessFn | DecideFn<T>): Promise<boolean | Decided<T>>;
  async function process<T>(
    path: string,
    fn: ProcessFn | DecideFn<T>,
  ): Promise<boolean | Decided<T>> {
    const done = await vault.process(deps.access.repliable(path), fn);
    if (typeof done === "boolean" ? done : done.written) await deps.live.wrote(path);
    return done;
  }
  return {
    read: (p) => vault.read(p),
    exists: (p) => vault.exists(p),
    list: (f) => vault.list(f),
    process,
  };
}

export const answerInboxItemTool = defineTool({
  name: "answer_inbox_item",
  title: "Answer an inbox item",
  description:
    "Answer, comment on, accept or decline an inbox item; written under the sender's item. Only a person accepts a proposal.",
  input: {
    id: z
      .string()
      .regex(/^\^?[qp]-[0-9a-z]+$/i, "an item id like q-k3f9x2m7qa, p-001")
      .describe("q-001 or p-001"),
    from: z.string().optional().describe("the sending agent; needed only when the id is ambiguous"),
    verb: z.enum(["answer", "comment", "accept", "decline"]),
    text: z.string().optional().describe("the answer or comment"),
  },
  output: {
    path: z.string(),
    id: z.string(),
    link: z.string(),
    state: z.string(),
    status: z.string(),
    changed: z.boolean(),
    promoted: z.array(z.string()),
    promotedTo: z.string().optional(),
  },
  // Accepting or declining replaces the item's state.
  hints: REPLACE,
  async run(args, deps) {
    const { ctx, access } = deps;
    const id = args.id.replace(/^\^/, "");
    const note = args.text === undefined ? undefined : valid(checkText("text", args.text));
    const agents = await knownAgents(ctx.vault, ctx.layout);
    let from = args.from?.trim() || undefined;
    if (from === undefined) {
      const hits = (
        await listInbox(ctx.vault, ctx.layout, agents, { person: false, name: access.agent })
      ).filter((it) => it.id === id);
      if (hits.length !== 1)
        throw new UsageError(
          `${hits.length === 0 ? `no ^${id} in the inbox of ${access.agent}` : `^${id} is in the inbox ${hits.length} times`}; give from: the agent whose tracker holds it`,
        );
      from = hits[0]?.from ?? "";
    } else if (!agents.includes(from)) {
      ctx.layout.agentRoot(from);
      throw new UsageError(`unknown agent "${from}" (known: ${agents.join(", ") || "none"})`);
    }
    const now = deps.now();
    const done = await answerInboxItem(replyVault(deps), ctx.layout, {
      from,
      id,
      verb: args.verb,
      actor: { person: false, name: access.agent },
      ...(note !== undefined ? { note } : {}),
      date: todayOf(now),
      timestamp: localTimestamp(new Date(now)),
    });
    return {
      text: `${done.changed ? "updated" : "unchanged"}: ^${done.id} of ${from} is ${done.state} ${done.link}`,
      data: { ...done },
    };
  },
});
