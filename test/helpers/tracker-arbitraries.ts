// fast-check generators of tracker notes (docs/architecture.md, "Trackers") for the round-trip and
// store properties: items with fields, ids and children, lines the parser does not understand,
// blank lines, CJK text, CRLF, BOM, frontmatter, with or without a final newline.
import fc from "fast-check";

/** What the generator put in the note, to compare with what the parser reads. */
export interface GeneratedItem {
  statusChar: string;
  text: string;
  fields: { key: string; value: string }[];
  id: string | null;
  children: string[];
}

export interface GeneratedNote {
  text: string;
  items: GeneratedItem[];
  /** Highest number used by each id prefix anywhere in the note (items and other lines). */
  maxByPrefix: Record<string, number>;
  eol: "\n" | "\r\n";
}

const WORDS = [
  "Renew",
  "passport",
  "Get the top-10 pages",
  "bounce rate",
  "睡眠质量",
  "早起习惯",
  "复盘",
  "认证系统的重构",
  "página",
  "🚀",
  "(draft)",
  "[[Project Alpha]]",
  "v3.2.5",
  "INC-2024-0887",
  "a:b",
  "x^2",
];
const KEYS = ["priority", "kind", "created", "source", "next", "every", "to", "status", "目标"];
const VALUES = [
  "2",
  "act",
  "2026-03-24",
  "[[2026-03-24#^am-k3f9]]",
  "[[a#^x]], [[b#^y]]",
  "biweekly",
  "[[editor]]",
  "proposed",
  "睡眠 质量",
];
/** Lines the parser does not read as items (or that test its edges), written as they are. */
const OTHER_LINES = [
  "# Tasks",
  "## Done 已完成",
  "Some prose about the week, 中文也有。",
  "> a quote",
  "- a plain list item",
  "- [>] forwarded item ^t-900",
  "- [?] question mark status",
  "-[ ] no space",
  "* not a task",
  "| a | table |",
  "<!-- comment -->",
];
/** Lines that change how their neighbours read (frontmatter fences, indentation, code fences). */
const EDGE_LINES = [
  "---",
  "...",
  "\ttabbed prose",
  "- [ ]",
  "- [ ] x ^t-001",
  "    - child",
  "```",
  "~~~~",
  "- [x] done [k:: [[a]] ^d-12",
];

const text = fc
  .array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 })
  .map((ws) => ws.join(" "));

const child = fc
  .tuple(
    fc.constantFrom("    ", "\t", "  ", "        "),
    fc.constantFrom("- ", "", "- 2026-03-24: "),
    text,
  )
  .map(([indent, bullet, t]) => indent + bullet + t);

const itemShape = fc.record({
  bullet: fc.constantFrom("-", "-", "-", "*", "+"),
  statusChar: fc.constantFrom(" ", "/", "x", "X", "-"),
  text,
  fields: fc.array(
    fc.record({
      key: fc.constantFrom(...KEYS),
      value: fc.constantFrom(...VALUES),
      paren: fc.boolean(),
    }),
    { maxLength: 3 },
  ),
  hasId: fc.boolean(),
  prefix: fc.constantFrom("t", "g", "r", "p", "q", "d"),
  children: fc.array(child, { maxLength: 3 }),
  trailingSpace: fc.boolean(),
});

type Block =
  | { kind: "item"; item: ItemShape }
  | { kind: "other"; line: string }
  | { kind: "blank"; line: string };
type ItemShape = {
  bullet: string;
  statusChar: string;
  text: string;
  fields: { key: string; value: string; paren: boolean }[];
  hasId: boolean;
  prefix: string;
  children: string[];
  trailingSpace: boolean;
};

const block: fc.Arbitrary<Block> = fc.oneof(
  { weight: 5, arbitrary: itemShape.map((item): Block => ({ kind: "item", item })) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(...OTHER_LINES).map((line): Block => ({ kind: "other", line })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom("", "  ", "\t").map((line): Block => ({ kind: "blank", line })),
  },
);

/** Generated tracker notes with the items they contain. */
export const trackerNote: fc.Arbitrary<GeneratedNote> = fc
  .record({
    blocks: fc.array(block, { maxLength: 14 }),
    eol: fc.constantFrom<"\n" | "\r\n">("\n", "\r\n"),
    mixedEol: fc.boolean(),
    bom: fc.boolean(),
    frontmatter: fc.boolean(),
    finalNewline: fc.boolean(),
    idStart: fc.integer({ min: 1, max: 1200 }),
    idStep: fc.integer({ min: 1, max: 9 }),
  })
  .map(({ blocks, eol, mixedEol, bom, frontmatter, finalNewline, idStart, idStep }) => {
    const lines: string[] = [];
    const items: GeneratedItem[] = [];
    const maxByPrefix: Record<string, number> = {};
    if (frontmatter)
      lines.push(
        "---",
        "type: tracker",
        "kind: tasks",
        "created_at: 2026-03-24T09:00:00+08:00",
        "tags: [inbox]",
        "---",
      );
    let n = idStart;
    for (const b of blocks) {
      if (b.kind !== "item") {
        if (b.kind === "other" && b.line.endsWith("^t-900"))
          maxByPrefix.t = Math.max(maxByPrefix.t ?? 0, 900);
        lines.push(b.line);
        continue;
      }
      const it = b.item;
      const id = it.hasId ? `${it.prefix}-${String(n).padStart(3, "0")}` : null;
      if (id) maxByPrefix[it.prefix] = Math.max(maxByPrefix[it.prefix] ?? 0, n);
      n += idStep;
      const fields = it.fields
        .map((f) => (f.paren ? ` (${f.key}:: ${f.value})` : ` [${f.key}:: ${f.value}]`))
        .join("");
      lines.push(
        `${it.bullet} [${it.statusChar}] ${it.text}${fields}${id ? ` ^${id}` : ""}${it.trailingSpace ? " " : ""}`,
      );
      lines.push(...it.children);
      items.push({
        statusChar: it.statusChar,
        text: it.text,
        fields: it.fields.map((f) => ({ key: f.key, value: f.value })),
        id,
        children: it.children,
      });
    }
    let out = bom ? "\uFEFF" : "";
    lines.forEach((line, i) => {
      const last = i === lines.length - 1;
      if (last && !finalNewline) out += line;
      else out += line + (mixedEol && i % 3 === 1 ? (eol === "\n" ? "\r\n" : "\n") : eol);
    });
    return { text: out, items, maxByPrefix, eol };
  });

/** Any text at all, line breaks of every kind included: the parser must keep it byte for byte. */
export const anyText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: "binary", maxLength: 300 }),
  fc
    .array(
      fc.oneof(
        fc.string({ unit: "grapheme", maxLength: 40 }),
        fc.constantFrom(...OTHER_LINES, ...EDGE_LINES),
      ),
      { maxLength: 20 },
    )
    .chain((parts) =>
      fc
        .array(fc.constantFrom("\n", "\r\n", "\r", ""), {
          minLength: parts.length,
          maxLength: parts.length,
        })
        .map((eols) => parts.map((p, i) => p + (eols[i] ?? "")).join("")),
    ),
);
