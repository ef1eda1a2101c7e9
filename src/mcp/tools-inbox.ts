/**
 * The inbox's MCP tools (docs/inbox.md): `inbox` lists what is addressed
 * to the server's agent, `answer_inbox_item` answers, comments on, or declines one of them (never
 * accepts a proposal: the rule of src/core/inbox/inbox.ts refuses it), and `propose_promotion`
 * files a promotion proposal to the person in the agent's own `Trackers/Proposals.md`. There is
 * no tool to approve: nothing an agent calls puts anything in the library.
 */
import { z } from "zod";
import { localTimestamp, today as todayOf } from "../core/util/dates";
import { UsageError } from "../core/errors";
import { knownAgents } from "../core/init";
import { listInbox } from "../core/inbox/inbox";
import { AREA_KEY, PROMOTE_KEY } from "../core/library/promote";
import { answerInboxItem } from "../core/inbox/respond";
import { parsePromotionTarget, planPromotion, promotionProposal } from "../core/library/promote";
import { fieldValue } from "../core/trackers/fields";
import { listItems } from "../core/trackers/format";
import { addTrackerItem } from "../core/trackers/store";
import { formatWikilink, linkTarget } from "../core/markdown/wikilinks";
import type { DecideFn, Decided, ProcessFn, VaultPort } from "../core/vault";
import type { ToolDeps, ToolSpec } from "./tool-spec";
import { isOpenStatus } from "../core/trackers/status";

const READ = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
const WRITE = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
const anyList = z.array(z.record(z.string(), z.unknown()));

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

const inbox: ToolSpec = {
  name: "inbox",
  description:
    "Questions and proposals other agents addressed to this agent, still waiting for an answer.",
  input: {},
  output: { agent: z.string(), items: anyList },
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
    return {
      text: lines.join("\n"),
      data: { agent: access.agent, items } as unknown as Record<string, unknown>,
    };
  },
};

const answerItem: ToolSpec = {
  name: "answer_inbox_item",
  description:
    "Answer, comment on, accept or decline an inbox item; written under the sender's item. Only a person accepts a proposal.",
  input: {
    id: z.string().regex(/^\^?[qp]-[0-9a-z]+$/i, "an item id like q-k3f9x2m7qa, p-001"),
    from: z.string().optional(),
    verb: z.enum(["answer", "comment", "accept", "decline"]),
    text: z.string().optional(),
  },
  output: { state: z.string(), changed: z.boolean(), link: z.string() },
  hints: WRITE,
  async run(args, deps) {
    const { ctx, access } = deps;
    const id = String(args.id).replace(/^\^/, "");
    const agents = await knownAgents(ctx.vault, ctx.layout);
    let from = typeof args.from === "string" && args.from.trim() ? args.from.trim() : undefined;
    if (from === undefined) {
      const hits = (
        await listInbox(ctx.vault, ctx.layout, agents, { person: false, name: access.agent })
      ).filter((it) => it.id === id);
      if (hits.length !== 1)
        throw new UsageError(
          `${hits.length === 0 ? `no ^${id} in the inbox of ${access.agent}` : `^${id} is in the inbox ${hits.length} times`}; give from: the agent whose tracker holds it`,
        );
      from = hits[0]?.from ?? "";
    } else if (!agents.includes(from))
      throw new UsageError(`unknown agent "${from}" (known: ${agents.join(", ") || "none"})`);
    const now = deps.now();
    const done = await answerInboxItem(replyVault(deps), ctx.layout, {
      from,
      id,
      verb: args.verb as "answer",
      actor: { person: false, name: access.agent },
      ...(typeof args.text === "string" ? { note: args.text } : {}),
      date: todayOf(now),
      timestamp: localTimestamp(new Date(now)),
    });
    return {
      text: `${done.changed ? "updated" : "unchanged"}: ^${done.id} of ${from} is ${done.state} ${done.link}`,
      data: { ...done } as unknown as Record<string, unknown>,
    };
  },
};

const proposePromotion: ToolSpec = {
  name: "propose_promotion",
  description:
    "Propose to the person promoting a note or callout (path#^block) to a library area. Nothing is promoted until a person accepts.",
  input: { note: z.string().min(1), area: z.string().min(1) },
  output: { id: z.string(), added: z.boolean(), destination: z.string() },
  hints: WRITE,
  async run(args, deps) {
    const { ctx, access } = deps;
    const source = parsePromotionTarget(ctx.layout, String(args.note));
    access.readable(source.path);
    const now = deps.now();
    const date = todayOf(now);
    const plan = await planPromotion(ctx.vault, ctx.layout, {
      target: `${source.path}${source.blockId ? `#^${source.blockId}` : ""}`,
      area: String(args.area),
      date,
      timestamp: localTimestamp(new Date(now)),
      realPath: (p) => ctx.vault.realVaultPath(p),
    });
    if (plan.already)
      throw new UsageError(`${plan.sourceLink} is already in the library: ${plan.destinationLink}`);
    const path = ctx.layout.trackerPath(access.agent, "proposals");
    const item = promotionProposal(plan, { person: ctx.settings.defaultAgent, date });
    const { written, result } = await access.writeGuarded().process(path, (current) => {
      const same =
        current === null
          ? undefined
          : listItems(current).find(
              (it) =>
                it.id &&
                isOpenStatus(it.status) &&
                linkTarget(fieldValue(it.fields, PROMOTE_KEY) ?? "") ===
                  linkTarget(plan.sourceLink) &&
                fieldValue(it.fields, AREA_KEY) === plan.area,
            );
      if (same?.id) return { content: current, result: { id: same.id, added: false } };
      const r = addTrackerItem(
        current,
        "proposals",
        { text: item.text, fields: item.fields },
        {
          agent: access.agent,
          title: ctx.settings.trackerFiles.proposals,
          createdAt: localTimestamp(new Date(now)),
        },
        path,
      );
      return { content: r.text, result: { id: r.id, added: true } };
    });
    if (written) await deps.live.wrote(path);
    const { id, added } = result;
    const link = formatWikilink({ path, blockId: id });
    return {
      text: `${added ? "proposed" : "already proposed"}: ^${id} ${link} — ${plan.sourceLink} → ${plan.destination}, waiting for a person's approval`,
      data: { path, id, link, added, destination: plan.destination, source: plan.sourceLink },
    };
  },
};

/** The inbox's tools, registered after the others. */
export const INBOX_TOOLS: readonly ToolSpec[] = [inbox, answerItem, proposePromotion];
