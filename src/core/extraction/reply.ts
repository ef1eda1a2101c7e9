/**
 * Reading a model's reply (docs/architecture.md, "The model's reply"): find the JSON even when it
 * is wrapped in prose or a code fence (test/core/extraction/llm-reply.test.ts, "case 08: …"), repair trailing
 * commas outside strings only, unwrap a one-element array, read categories case-insensitively, and
 * keep the valid items while dropping and reporting only the invalid ones (test/core/extraction/llm-reply.test.ts,
 * "case 09 (a): …"). Pure; never throws.
 */
import { z } from "zod";
import { CATEGORIES, type Category, type RejectedItem } from "./types";
import { err, ok, type Result } from "../util/result";
import { ITEM_ID_RE } from "../util/ids";

/** An item as the model gave it, after validation; not yet checked against the journal. */
export interface ReplyItem {
  category: Category;
  text: string;
  evidence: string;
  confidence?: number;
  topic?: string;
  target?: string;
  due?: string;
  ref?: string;
  progress?: boolean;
}

/** A reply read: its valid items and the rejected ones, or why no items list was found. */
export type ReplyParse = Result<{ items: ReplyItem[]; rejected: RejectedItem[] }>;

/** How many candidate start positions are tried in a long reply before giving up. */
const MAX_CANDIDATES = 24;

/** Removes commas that directly precede `}` or `]`, outside string literals only. */
export function repairTrailingCommas(json: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const ch = json[i] ?? "";
    if (inString) {
      out += ch;
      if (ch === "\\") {
        out += json[i + 1] ?? "";
        i++;
      } else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    if (ch === ",") {
      let j = i + 1;
      while (j < json.length && /\s/.test(json[j] ?? "")) j++;
      if (json[j] === "}" || json[j] === "]") continue;
    }
    out += ch;
  }
  return out;
}

/**
 * The balanced JSON value starting at `start` (a `{` or `[`), string-aware; `null` when it never
 * closes (a reply cut off mid-JSON).
 */
export function balancedAt(text: string, start: number): string | null {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "{") stack.push("}");
    else if (ch === "[") stack.push("]");
    else if (ch === "}" || ch === "]") {
      if (stack.pop() !== ch) return null;
      if (stack.length === 0) return text.slice(start, i + 1);
    }
  }
  return null;
}

function tryParse(candidate: string): unknown {
  for (const text of [candidate, repairTrailingCommas(candidate)]) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // try the repaired text, then give up on this candidate
    }
  }
  return undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function field(obj: Record<string, unknown>, name: string): unknown {
  if (name in obj) return obj[name];
  const key = Object.keys(obj).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : obj[key];
}

/** The items list inside a parsed value, or `null` when the value has none. */
function isList(v: unknown): v is unknown[] {
  return Array.isArray(v);
}

function itemsOf(value: unknown): unknown[] | null {
  if (isList(value)) {
    const inner = value.length === 1 && isRecord(value[0]) ? field(value[0], "items") : undefined;
    if (isList(inner)) return inner;
    if (value.every((v) => isRecord(v) && field(v, "category") !== undefined)) return value;
    return null;
  }
  if (isRecord(value)) {
    const items = field(value, "items");
    if (isList(items)) return items;
    if (field(value, "category") !== undefined && field(value, "text") !== undefined)
      return [value];
  }
  return null;
}

/**
 * Finds the items list in a reply: the whole text, then each fenced block, then each balanced
 * `{…}`/`[…]` in the prose. Reasoning blocks (`<think>…</think>`) are skipped.
 */
export function findItemsJson(reply: string): unknown[] | null {
  const text = reply.replace(/<think>[\s\S]*?<\/think>/gi, "").trim();
  const candidates: string[] = [text];
  for (const m of text.matchAll(/(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n?\1/g))
    candidates.push(m[2] ?? "");
  let tried = 0;
  for (let i = 0; i < text.length && tried < MAX_CANDIDATES; i++) {
    const ch = text[i];
    if (ch !== "{" && ch !== "[") continue;
    tried++;
    const value = balancedAt(text, i);
    if (value) candidates.push(value);
  }
  for (const candidate of candidates) {
    const parsed = tryParse(candidate.trim());
    if (parsed === undefined) continue;
    const items = itemsOf(parsed);
    if (items) return items;
  }
  return null;
}

const categoryList = CATEGORIES.join(", ");

/** An optional field read leniently: a value that does not fit becomes `undefined`. */
function lenient<T>(read: (value: unknown) => T | undefined) {
  return z.unknown().optional().transform(read);
}

const optionalText = lenient((v) =>
  typeof v === "string" && v.trim() ? v.trim() : typeof v === "number" ? String(v) : undefined,
);

/** Zod schema of one reply item. Optional fields that do not fit are dropped, not the item. */
export const replyItemSchema = z.object({
  category: z
    .string({ error: "category is missing" })
    .transform((s) => s.trim().toLowerCase())
    .pipe(
      z.enum(CATEGORIES as [Category, ...Category[]], {
        error: (iss) => `category "${String(iss.input)}" is not one of ${categoryList}`,
      }),
    ),
  text: z.string({ error: "text is missing" }).trim().min(1, { error: "text is empty" }),
  evidence: z
    .string({ error: "evidence is missing" })
    .trim()
    .min(1, { error: "evidence is empty" }),
  confidence: lenient((v) => {
    const n = typeof v === "string" ? Number.parseFloat(v) : v;
    return typeof n === "number" && Number.isFinite(n) && n >= 0 && n <= 1 ? n : undefined;
  }),
  topic: optionalText,
  target: optionalText,
  due: lenient((v) =>
    typeof v === "string" ? /^\d{4}-\d{2}-\d{2}$/.exec(v.trim())?.[0] : undefined,
  ),
  ref: lenient((v) =>
    typeof v === "string" && ITEM_ID_RE.test(v.trim()) && !/^am-/i.test(v.trim())
      ? v.trim().toLowerCase()
      : undefined,
  ),
  progress: lenient((v) => (v === true || v === "true" ? true : undefined)),
});

function describeRejected(raw: unknown, reason: string): RejectedItem {
  const out: RejectedItem = { reason: `invalid item: ${reason}` };
  if (isRecord(raw)) {
    const category = field(raw, "category");
    const text = field(raw, "text");
    const evidence = field(raw, "evidence");
    if (typeof category === "string") out.category = category;
    if (typeof text === "string") out.text = text;
    if (typeof evidence === "string") out.evidence = evidence;
  }
  return out;
}

/** Validates one raw item; keys are matched case-insensitively. */
export function validateReplyItem(raw: unknown): { item: ReplyItem } | { rejected: RejectedItem } {
  if (!isRecord(raw)) return { rejected: describeRejected(raw, "not an object") };
  const lowered: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw))
    if (!(k.toLowerCase() in lowered)) lowered[k.toLowerCase()] = v;
  const result = replyItemSchema.safeParse(lowered);
  if (!result.success) {
    const reason = result.error.issues.map((i) => i.message).join("; ");
    return { rejected: describeRejected(raw, reason) };
  }
  const d = result.data;
  const item: ReplyItem = { category: d.category, text: d.text, evidence: d.evidence };
  if (d.confidence !== undefined) item.confidence = d.confidence;
  if (d.topic !== undefined) item.topic = d.topic;
  if (d.target !== undefined) item.target = d.target;
  if (d.due !== undefined) item.due = d.due;
  if (d.ref !== undefined) item.ref = d.ref;
  if (d.progress !== undefined) item.progress = d.progress;
  return { item };
}

/**
 * Parses a reply's content into valid items and rejected ones.
 * @returns an error naming the reply's start when no items list can be found at all.
 */
export function parseReply(content: string): ReplyParse {
  const raw = findItemsJson(content);
  if (!raw) {
    const snippet = content.replace(/\s+/g, " ").trim().slice(0, 80);
    return err(snippet ? `no JSON items list in the reply ("${snippet}…")` : "the reply is empty");
  }
  const items: ReplyItem[] = [];
  const rejected: RejectedItem[] = [];
  for (const entry of raw) {
    const r = validateReplyItem(entry);
    if ("item" in r) items.push(r.item);
    else rejected.push(r.rejected);
  }
  return ok({ items, rejected });
}
