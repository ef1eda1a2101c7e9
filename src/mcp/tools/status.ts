/** `status` (docs/mcp.md, "Tools"): the server's index and watcher. */
import { z } from "zod";
import { READ, defineTool } from "./common";

export const status = defineTool({
  name: "status",
  title: "Server status",
  description:
    "Server and index status: notes indexed, changes pending, last change seen, index age.",
  input: {},
  output: {
    agent: z.string(),
    zones: z.array(z.string()),
    notes: z.number(),
    pending: z.number(),
    last_change: z.object({ path: z.string(), at: z.string() }).nullable(),
    index_source: z.enum(["saved", "built"]),
    opened_at: z.string(),
    saved_at: z.string().nullable(),
    index_age_s: z.number(),
    unsaved_changes: z.boolean(),
    watching: z.boolean(),
  },
  hints: READ,
  async run(_args, deps) {
    const s = deps.live.status();
    const now = deps.now();
    const data = {
      agent: deps.access.agent,
      zones: [...deps.access.zones],
      notes: s.notes,
      pending: s.pending,
      last_change: s.lastChange
        ? { path: s.lastChange.path, at: new Date(s.lastChange.at).toISOString() }
        : null,
      index_source: s.source,
      opened_at: new Date(s.openedAt).toISOString(),
      saved_at: s.savedAt === null ? null : new Date(s.savedAt).toISOString(),
      index_age_s: Math.round((now - (s.savedAt ?? s.openedAt)) / 100) / 10,
      unsaved_changes: s.unsaved,
      watching: s.watching,
    };
    const text = `${data.notes} notes indexed (${data.pending} changes pending), index ${data.index_source} ${data.opened_at}, saved ${data.saved_at ?? "not since"}; last change ${data.last_change ? `${data.last_change.path} at ${data.last_change.at}` : "none"}; watcher ${data.watching ? "on" : "off"}`;
    return { text, data };
  },
});
