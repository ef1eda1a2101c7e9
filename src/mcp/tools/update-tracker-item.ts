/**
 * `update_tracker_item` (docs/mcp.md, "Tools"): a status, a dated progress note, an answer or fields
 * on an item of the agent's tracker. Never removes an item; every value is checked first
 * (docs/mcp.md, "What a write tool refuses").
 */
import { z } from "zod";
import { UsageError } from "../../core/errors";
import { agentEditRefusal } from "../../core/inbox/inbox";
import { TRACKER_KINDS } from "../../core/settings";
import { addAnswer } from "../../core/trackers/answers";
import { FIELD_KEYS } from "../../core/trackers/fields";
import {
  findItem,
  addItemSource,
  addProgressNote,
  setItemField,
  setItemStatus,
} from "../../core/trackers/store";
import { advanceReview } from "../../core/trackers/reviews";
import { checkFieldValue, checkText } from "../../core/trackers/validate";
import { today as todayOf } from "../../core/util/dates";
import { REPLACE, defineTool, edited, noteLink, valid, write } from "./common";
import { fieldsArg } from "./fields-arg";

export const updateTrackerItem = defineTool({
  name: "update_tracker_item",
  title: "Update a tracker item",
  description:
    "Update a tracker item of this agent by id: status, a dated progress note, an answer, or fields (replacing their values). Never removes an item. A review marked done moves to its next date.",
  input: {
    kind: z.enum(TRACKER_KINDS).describe("the item's tracker"),
    id: z
      .string()
      .regex(/^[A-Za-z0-9-]{1,40}$/, "an item id like t-007")
      .describe("the item's id, like t-007"),
    status: z.enum(["open", "in-progress", "done", "abandoned"]).optional(),
    progress: z
      .string()
      .min(1)
      .optional()
      .describe("a progress note, written under the item with today's date"),
    answer: z.string().min(1).optional().describe("an answer to a question"),
    fields: fieldsArg,
  },
  output: {
    path: z.string(),
    id: z.string(),
    changed: z.boolean(),
    status: z.string(),
    link: z.string(),
  },
  hints: REPLACE,
  async run(args, deps) {
    const { access, ctx } = deps;
    const k = args.kind;
    const id = args.id.replace(/^\^/, "");
    const fields = Object.entries(args.fields ?? {}).map(([key, value]): [string, string] => [
      key,
      valid(checkFieldValue(key, value)),
    ]);
    const progress =
      args.progress === undefined ? undefined : valid(checkText("progress", args.progress));
    const answer = args.answer === undefined ? undefined : valid(checkText("answer", args.answer));
    if (
      args.status === undefined &&
      progress === undefined &&
      answer === undefined &&
      fields.length === 0
    )
      throw new UsageError("nothing to update: give status, progress, answer or fields");
    const refused = agentEditRefusal(k, args.status, fields);
    if (refused) throw new UsageError(refused);
    const path = ctx.layout.trackerPath(access.agent, k);
    const day = todayOf(deps.now());
    if (!(await ctx.vault.exists(path)))
      throw new UsageError(`no item ^${id} in ${path} (the tracker does not exist)`);
    const { written: changed, result: status } = await write(deps, path, (current) => {
      if (current === null) throw new UsageError(`no item ^${id} in ${path}`);
      let text = current;
      if (!findItem(text, id)) throw new UsageError(`no item ^${id} in ${path}`);
      if (args.status === "done" && k === "reviews") {
        const r = advanceReview(text, id, day, path);
        if (!r.ok) throw new UsageError(r.error);
        text = r.value.text;
      } else if (args.status !== undefined)
        text = edited(setItemStatus(text, id, args.status, path, day), path, id);
      if (progress !== undefined)
        text = edited(addProgressNote(text, id, progress, day, path), path, id);
      if (answer !== undefined)
        text = edited(addAnswer(text, id, answer, access.agent, day, path), path, id);
      for (const [key, value] of fields) {
        // A source is added to the links already there, never replaces them.
        text =
          key.toLowerCase() === FIELD_KEYS.source
            ? edited(addItemSource(text, id, value, path), path, id)
            : edited(setItemField(text, id, key, value, path), path, id);
      }
      return { content: text, result: findItem(text, id)?.status ?? "" };
    });
    const link = noteLink(path, id);
    return {
      text: `${changed ? "updated" : "unchanged"}: ^${id} (${status}) ${link}`,
      data: { path, id, changed, status, link },
    };
  },
});
