/**
 * `propose_promotion` (docs/inbox.md): files a proposal to the person, in the agent's own proposals
 * tracker, that a note or callout be promoted to a library area. Nothing reaches the library until
 * a person accepts.
 */
import { z } from "zod";
import { UsageError } from "../../core/errors";
import {
  AREA_KEY,
  PROMOTE_KEY,
  parsePromotionTarget,
  planPromotion,
  promotionProposal,
} from "../../core/library/promote";
import { formatWikilink, linkTarget } from "../../core/markdown/wikilinks";
import { fieldValue } from "../../core/trackers/fields";
import { listItems } from "../../core/trackers/format";
import { isOpenStatus } from "../../core/trackers/status";
import { addTrackerItem } from "../../core/trackers/store";
import { localTimestamp, today as todayOf } from "../../core/util/dates";
import { ADD_ONCE, defineTool } from "./common";

export const proposePromotion = defineTool({
  name: "propose_promotion",
  title: "Propose a promotion",
  description:
    "Propose to the person promoting a note or callout (path#^block) to a library area. Nothing is promoted until a person accepts.",
  input: {
    note: z.string().min(1).describe("the note's path, or path#^block for one callout"),
    area: z.string().min(1).describe("a folder of the library"),
  },
  output: {
    path: z.string(),
    id: z.string(),
    link: z.string(),
    added: z.boolean(),
    destination: z.string(),
    source: z.string(),
  },
  hints: ADD_ONCE,
  async run(args, deps) {
    const { ctx, access } = deps;
    const source = parsePromotionTarget(ctx.layout, args.note);
    access.readable(source.path);
    const now = deps.now();
    const date = todayOf(now);
    const plan = await planPromotion(ctx.vault, ctx.layout, {
      target: `${source.path}${source.blockId ? `#^${source.blockId}` : ""}`,
      area: args.area,
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
});
