/** `read_note` (docs/mcp.md, "Tools"): a note, its section or its block, a page at a time. */
import { z } from "zod";
import { findNote, readNotePage } from "../read-note";
import { READ, defineTool } from "./common";

export const readNote = defineTool({
  name: "read_note",
  title: "Read a note",
  description:
    "Read a note by vault path, frontmatter id, title or [[wikilink#heading]] / [[note#^block]]. Paged: says total_chars and next_offset.",
  input: {
    note: z.string().min(1).describe("path, id, title or [[note#^block]]"),
    offset: z.number().int().min(0).optional().describe("first character, default 0"),
    limit: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .optional()
      .describe("most characters, default 20000"),
  },
  output: {
    path: z.string(),
    title: z.string(),
    anchor: z.string().nullable(),
    total_chars: z.number(),
    offset: z.number(),
    next_offset: z.number().nullable(),
    text: z.string(),
  },
  hints: READ,
  async run(args, deps) {
    await deps.live.settled();
    const target = await findNote(args.note, deps.access, deps.live);
    const page = await readNotePage(
      target,
      deps.access,
      deps.live,
      args.offset ?? 0,
      args.limit ?? 20_000,
    );
    const more = page.next_offset === null ? "end" : `more from offset ${page.next_offset}`;
    const head = `${page.path}${page.anchor ?? ""} · characters ${page.offset}–${page.offset + page.text.length} of ${page.total_chars} (${more})`;
    return { text: `${head}\n\n${page.text}`, data: { ...page } };
  },
});
