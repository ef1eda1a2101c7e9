/**
 * `agent-memory inbox <vault> [list] [--agent A] [--json]` and
 * `agent-memory inbox <vault> answer|comment|accept|approve|decline <id> [text] [--from SENDER] [--agent A]`
 * (docs/inbox.md). Without `--agent` the person acts (signed with the settings'
 * default agent, the person's address); with `--agent A` the agent A acts and may only answer,
 * comment on or decline what is addressed to it, never accept a proposal or anything of its own.
 * `approve` is `accept`. Exit 0 done; 2 bad input or a refused verb, with nothing written.
 */
import type { CliCommand } from "../command";
import { UsageError } from "../../core/errors";
import { localTimestamp, today as todayOf } from "../../core/util/dates";
import { unknownAgentError } from "../../core/init";
import { INBOX_VERBS, inboxKindOf, listInbox, type InboxVerb } from "../../core/inbox/inbox";
import { addressedTo } from "../../core/inbox/address";
import { FIELD_KEYS, fieldValue } from "../../core/trackers/fields";
import { findItem } from "../../core/trackers/store";
import type { CliContext } from "../../node/context";
import { answerInboxItem } from "../../core/inbox/respond";
import { requireMemoryRoot } from "../../node/context";
import { cliActor, printInbox } from "../shared";

export const inboxCommand: CliCommand = {
  name: "inbox",
  usage:
    "inbox <vault> [list | answer|comment|accept|approve|decline <id> [text]] [--from SENDER] [--agent NAME] [--json]",
  options: { agent: { type: "string" }, from: { type: "string" } },
  positionals: { min: 0, max: 3 },
  async run(ctx, args, options) {
    await requireMemoryRoot(ctx);
    const { actor, agents } = await cliActor(ctx, options.agent);
    const word = (args[0] ?? "list").toLowerCase();
    if (word === "list") {
      if (args.length > 1) throw new UsageError("inbox list takes no more arguments");
      const items = await listInbox(ctx.vault, ctx.layout, agents, actor);
      if (options.json)
        ctx.out(
          JSON.stringify(
            { person: actor.person, agent: actor.person ? null : actor.name, items },
            null,
            2,
          ),
        );
      else printInbox(ctx, actor, items);
      return 0;
    }
    const verb = (word === "approve" ? "accept" : word) as InboxVerb;
    if (!(INBOX_VERBS as readonly string[]).includes(verb))
      throw new UsageError(
        `unknown inbox verb "${word}" (list, ${INBOX_VERBS.join(", ")}, approve)`,
      );
    const id = (args[1] ?? "").replace(/^\^/, "");
    if (!id) throw new UsageError(`inbox ${word} needs an item id (q-001, p-001)`);
    let from = typeof options.from === "string" ? options.from : undefined;
    if (from !== undefined && !agents.includes(from))
      throw unknownAgentError(
        from,
        agents,
        "pass --from with the agent whose tracker holds the item",
      );
    if (from === undefined) {
      // Without --from: the one item with this id in the actor's inbox.
      let hits: { from: string }[] = (await listInbox(ctx.vault, ctx.layout, agents, actor)).filter(
        (it) => it.id === id,
      );
      // Answered, accepted or declined already: it has left the inbox, yet the same verb again must
      // change nothing, and another verb must say why it is refused. Find it by its address.
      if (hits.length === 0) hits = await addressedItems(ctx, agents, id, actor.name);
      if (hits.length !== 1)
        throw new UsageError(
          `${hits.length === 0 ? `no ^${id} in the inbox` : `^${id} is in the inbox ${hits.length} times`}; pass --from with the agent whose tracker holds it`,
        );
      from = hits[0]?.from ?? "";
    }
    const now = new Date();
    const note = args[2];
    const done = await answerInboxItem(ctx.vault, ctx.layout, {
      from,
      id,
      verb,
      actor,
      ...(note !== undefined ? { note } : {}),
      date: todayOf(now),
      timestamp: localTimestamp(now),
      realPath: (p) => ctx.vault.realVaultPath(p),
    });
    if (options.json) ctx.out(JSON.stringify(done, null, 2));
    else {
      ctx.out(
        `${done.changed ? "updated" : "unchanged"}: ^${done.id} of ${from} is ${done.state} (${done.status}) ${done.link}`,
      );
      if (done.promotedTo)
        ctx.out(
          `promoted to ${done.promotedTo}${done.promoted.length > 0 ? ` (wrote ${done.promoted.join(", ")})` : " (already there)"}`,
        );
    }
    return 0;
  },
};

/** The senders whose questions or proposals tracker holds item `id` addressed to `name`, whatever its state. */
async function addressedItems(
  ctx: CliContext,
  agents: readonly string[],
  id: string,
  name: string,
): Promise<{ from: string }[]> {
  const kind = inboxKindOf(id);
  if (kind === null) return [];
  const out: { from: string }[] = [];
  for (const from of agents) {
    const path = ctx.layout.trackerPath(from, kind);
    if (!(await ctx.vault.exists(path))) continue;
    const item = findItem(await ctx.vault.read(path), id);
    if (item && addressedTo(fieldValue(item.fields, FIELD_KEYS.to), name)) out.push({ from });
  }
  return out;
}
