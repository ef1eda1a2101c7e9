/**
 * Settings shared by the plugin and the CLI, validated with zod. Unknown keys are dropped, missing
 * keys take their defaults, and {@link parseSettings} never throws: a bad value falls back to the
 * defaults with a reason (docs/plugin.md, "Settings").
 * API keys are never part of the settings; the plugin stores only the secret's name.
 */
import { z } from "zod";
import { checkBaseUrl } from "./url";
import { sectionHeadingsSchema } from "./extraction/section-headings";
import { err, ok, type Result } from "./util/result";

export const TRACKER_KINDS = [
  "tasks",
  "goals",
  "reviews",
  "proposals",
  "questions",
  "decisions",
] as const;
/** A tracker note kind (docs/architecture.md, "The five layers"). */
export type TrackerKind = (typeof TRACKER_KINDS)[number];

const trackerFiles = z.object({
  tasks: z.string().min(1).default("Tasks"),
  goals: z.string().min(1).default("Goals"),
  reviews: z.string().min(1).default("Reviews"),
  proposals: z.string().min(1).default("Proposals"),
  questions: z.string().min(1).default("Questions"),
  decisions: z.string().min(1).default("Decisions"),
});

/**
 * Where each category goes (docs/architecture.md, "The checklist"). A tracker kind, or
 * `topic:<Heading>` for a section of a knowledge topic note. Decisions go to the Decisions tracker
 * and to the topic's `## Decisions` when the item names a topic.
 */
const destinations = z.object({
  task: z.string().default("tracker:tasks"),
  goal: z.string().default("tracker:goals"),
  pattern: z.string().default("topic:Patterns"),
  improvement: z.string().default("tracker:proposals"),
  knowledge: z.string().default("topic:Insights"),
  decision: z.string().default("tracker:decisions"),
  question: z.string().default("tracker:questions"),
});

/**
 * Why the `llm.baseUrl` setting cannot be used, or `null` when it can: empty (offline) or an http(s)
 * URL without user name or password ({@link checkBaseUrl}). The reason never repeats the URL, so it
 * holds no credentials; the settings schema and the plugin's "Test connection" give it
 * (test/core/settings.test.ts; test/obsidian/plugin-settings.test.ts).
 */
export function baseUrlSettingError(value: string): string | null {
  if (value.trim() === "") return null;
  const problem = checkBaseUrl(value);
  if (!problem) return null;
  const advice =
    problem.kind === "credentials"
      ? "; give the URL without them and put the key in the API key setting"
      : "";
  return `the base URL ${problem.reason}${advice}`;
}

const baseUrlSetting = z
  .string()
  .superRefine((value, ctx) => {
    const error = baseUrlSettingError(value);
    if (error) ctx.addIssue({ code: "custom", message: error });
  })
  .default("");

const llm = z.object({
  /** OpenAI-compatible base URL, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`. Empty: offline. */
  baseUrl: baseUrlSetting,
  model: z.string().default(""),
  /** Name of the secret in Obsidian's secret storage holding the API key (never the key itself). */
  apiKeySecret: z.string().default(""),
  /** Per-request timeout, milliseconds. */
  timeoutMs: z.number().int().positive().default(60_000),
  /** Retries after the first attempt on 429, 5xx and network errors. */
  maxRetries: z.number().int().min(0).max(10).default(2),
  /** Journal window budget per chat completion, in estimated tokens. */
  windowTokens: z.number().int().min(200).default(6000),
  /** Budget for open items and topic names given to the model, in estimated tokens. */
  contextTokens: z.number().int().min(0).default(1500),
  temperature: z.number().min(0).max(2).default(0.2),
  /** USD per million prompt tokens; 0 = unknown. */
  pricePromptPerM: z.number().min(0).default(0),
  /** USD per million completion tokens; 0 = unknown. */
  priceCompletionPerM: z.number().min(0).default(0),
});

/**
 * Semantic recall (docs/architecture.md, "Semantic recall"): an OpenAI-compatible embeddings
 * endpoint. Empty `baseUrl` and `model`: no embeddings, search is BM25 alone. The API key is never
 * a setting: the plugin keeps the name of its secret, the CLI reads
 * `AGENT_MEMORY_EMBEDDINGS_API_KEY`.
 */
const embeddings = z.object({
  /** OpenAI-compatible base URL, e.g. `http://localhost:11434/v1`. Empty: no embeddings. */
  baseUrl: baseUrlSetting,
  /** Embedding model, e.g. `nomic-embed-text`, `text-embedding-3-small`. */
  model: z.string().default(""),
  /** Name of the secret in Obsidian's secret storage holding the API key (never the key itself). */
  apiKeySecret: z.string().default(""),
  /** Per-request timeout while indexing, milliseconds. */
  timeoutMs: z.number().int().positive().default(60_000),
  /** Timeout of the query's embedding at search time, milliseconds; past it BM25 answers alone. */
  queryTimeoutMs: z.number().int().positive().default(5_000),
  /** Retries after the first attempt on 429, 5xx and network errors, while indexing. */
  maxRetries: z.number().int().min(0).max(10).default(2),
  /** Texts per request. */
  batchSize: z.number().int().min(1).max(2048).default(64),
  /** How vectors are asked for: `base64` (compact, the SDK's default) or `float` (JSON numbers). */
  encoding: z.enum(["base64", "float"]).default("base64"),
  /** Expected vector length; 0 takes what the model gives (a mismatch stops `index`). */
  dimensions: z.number().int().min(0).max(8192).default(0),
  /**
   * Isolated zones (as in `isolatedZones`) whose text may be sent to the embeddings server. None by
   * default: a zone's text never leaves the machine unless it is listed here.
   */
  zones: z.array(z.string().transform(normalizeZone)).default([]),
  /** USD per million input tokens, for the cost in `index`'s report; 0 = unknown. */
  pricePerM: z.number().min(0).default(0),
});

const gate = z.object({
  enabled: z.boolean().default(true),
  /**
   * Rescans after the first pass (default 1, at most 3;
   * docs/architecture.md, "The self-check gate").
   */
  maxRescans: z.number().int().min(0).max(3).default(1),
  /** A document at least this long (characters; CJK characters count double) is "rich". */
  richDocChars: z.number().int().min(0).default(1200),
  /** Sections (headings) from which "all items in one category" fires. */
  minSectionsForSpread: z.number().int().min(2).default(3),
  /** Expected items per 1000 characters (lower bound of the band). */
  minItemsPer1000Chars: z.number().min(0).default(1.25),
  /** Expected items per 1000 characters (upper bound of the band). */
  maxItemsPer1000Chars: z.number().min(0).default(4),
  /** A count above `maxItemsPer1000Chars × this factor` asks the model to merge. */
  mergeFactor: z.number().min(1).default(2),
});

const search = z.object({
  /** Recency half-life in days; 0 disables recency weighting. */
  recencyHalfLifeDays: z.number().min(0).default(0),
  /** Notes above this size (bytes) are indexed by frontmatter and headings only. */
  sizeCapBytes: z
    .number()
    .int()
    .positive()
    .default(2 * 1024 * 1024),
  useConfidence: z.boolean().default(true),
});

const fieldList = z.array(z.string());

/**
 * Required frontmatter fields per collection (docs/decisions.md, "Required fields per collection"),
 * each replacing `requiredFields` for the notes of that collection. Journals need none by default:
 * people write them by hand, and extraction only adds `extracted_at` and `extraction_hash`; the
 * notes Agent Memory creates (trackers, topic notes, the library index) carry `id`, `type`,
 * `status` and `created_at`.
 */
const requiredFieldsBy = z.object({
  journal: fieldList.default([]),
  tracker: fieldList.optional(),
  knowledge: fieldList.optional(),
  library: fieldList.optional(),
  isolated: fieldList.optional(),
  other: fieldList.optional(),
});

/**
 * Watch and extract (docs/compaction.md): extract a journal once it has been left unchanged for
 * `extractAfterMinutes` (0 = off, the default), queueing the plan for review unless `autoApply`.
 */
const watch = z.object({
  extractAfterMinutes: z.number().int().min(0).max(1440).default(0),
  autoApply: z.boolean().default(false),
});

/**
 * The agent hooks (docs/agents.md, "The automatic loop"): how much a prompt may bring back
 * (`agent-memory hook`, UserPromptSubmit) and how relevant a passage must be to be added.
 */
const hooks = z.object({
  /** Most characters of context added to a prompt. */
  promptContextChars: z.number().int().min(200).max(10000).default(1500),
  /** Share of the prompt's words a passage must hold to be added (src/core/ingest/recall.ts). */
  promptMinCoverage: z.number().min(0).max(1).default(0.5),
});

/**
 * Importing agent sessions in the plugin (docs/agents.md, "Importing past sessions"): per agent, a
 * vault folder whose Claude Code and Codex transcripts (`.jsonl`) are ingested when they are added
 * or grow. None by default.
 */
const sessionImport = z.object({
  /** Agent name → vault folder of its transcripts (empty or absent: not watched). */
  folders: z.record(z.string(), z.string()).default({}),
});

const health = z.object({
  /** Fields every note must have, unless its collection has its own list in `requiredFieldsBy`. */
  requiredFields: fieldList.default(["id", "type", "status", "created_at"]),
  requiredFieldsBy: requiredFieldsBy.prefault({}),
  /** Drafts not updated for this many days are reported. */
  draftDays: z.number().int().min(1).default(30),
  /** Knowledge not updated for this many days while newer journals mention the topic is stale. */
  staleDays: z.number().int().min(1).default(90),
});

/**
 * An isolated zone's folder as the settings and scopes name it: relative to the memory root, with
 * `/` separators, without `./`, leading, trailing or doubled slashes (`/Clients\\Acme/` is
 * `Clients/Acme`).
 */
export function normalizeZone(zone: string): string {
  return zone
    .trim()
    .replace(/\\/g, "/")
    .replace(/^(?:\.\/)+/, "")
    .replace(/^\/+|\/+$/g, "")
    .replace(/\/{2,}/g, "/");
}

export const settingsSchema = z.object({
  memoryRoot: z.string().default("Memory"),
  agentsFolder: z.string().min(1).default("Agents"),
  journalFolder: z.string().min(1).default("Journal"),
  trackersFolder: z.string().min(1).default("Trackers"),
  knowledgeFolder: z.string().min(1).default("Knowledge"),
  libraryFolder: z.string().min(1).default("Library"),
  /**
   * Folders under the memory root that are isolated zones (docs/architecture.md, "A search"), as
   * paths relative to it (`Restricted`, `Clients/Acme`). Written with backslashes or leading and
   * trailing slashes they are read as meant (`/Clients/Acme/` is `Clients/Acme`); a zone holding no
   * notes is reported by
   * `index`, since a misspelt zone isolates nothing.
   */
  isolatedZones: z
    .array(z.string().transform(normalizeZone).pipe(z.string().min(1, "a zone must name a folder")))
    .default(["Restricted"]),
  trackerFiles: trackerFiles.prefault({}),
  defaultAgent: z.string().min(1).default("me"),
  knowledgeCategories: z
    .array(z.string().min(1))
    .min(1)
    .default(["learning", "strategy", "team", "customers"]),
  /** Journal file name pattern under the agent's journal folder (moment-style tokens YYYY MM DD). */
  journalPattern: z.string().min(1).default("YYYY-MM-DD"),
  useDailyNotes: z.boolean().default(false),
  /** `review`: show the plan review modal each run; `apply`: apply at once. */
  reviewMode: z.enum(["review", "apply"]).default("review"),
  destinations: destinations.prefault({}),
  /**
   * Headings that name a category, for the offline extractor
   * (docs/decisions.md, "Offline extraction reads headings and phrasings, not meaning"): items
   * under
   * `## Action items` are tasks, under `## 学到的` knowledge. One list per category; a heading may
   * be listed under one category only.
   */
  sectionHeadings: sectionHeadingsSchema.prefault({}),
  llm: llm.prefault({}),
  embeddings: embeddings.prefault({}),
  gate: gate.prefault({}),
  search: search.prefault({}),
  health: health.prefault({}),
  watch: watch.prefault({}),
  hooks: hooks.prefault({}),
  sessionImport: sessionImport.prefault({}),
});

export type Settings = z.infer<typeof settingsSchema>;
export type Category = keyof Settings["destinations"];

/**
 * The frontmatter fields a note of `collection` must have
 * (docs/decisions.md, "Required fields per collection"): the collection's own list in
 * `health.requiredFieldsBy` when it has one, else
 * `health.requiredFields`.
 */
export function requiredFieldsOf(
  health: Settings["health"],
  collection: keyof Settings["health"]["requiredFieldsBy"],
): readonly string[] {
  return health.requiredFieldsBy[collection] ?? health.requiredFields;
}

/** A fresh copy of the default settings. */
export function defaultSettings(): Settings {
  return settingsSchema.parse({});
}

/**
 * Why stored settings did not validate, with the settings to run with meanwhile: each invalid value
 * reset to its default (all defaults when the value was not an object).
 */
export interface SettingsReset {
  /** The reason, naming each setting that was reset. */
  message: string;
  /** The settings with each invalid value reset to its default. */
  settings: Settings;
}

/**
 * Validates stored settings (the plugin's `data.json` or the CLI's copy of it). Each invalid value
 * falls back to its default on its own, so one bad number does not throw away the memory root or
 * the destinations a person chose; a value that is not an object at all gives the defaults.
 * Missing settings (`undefined`, `null`) are the defaults, not an error.
 * @returns the settings, or a {@link SettingsReset} naming each setting that was reset (see
 *   {@link usableSettings} for the settings to run with either way).
 */
export function parseSettings(raw: unknown): Result<Settings, SettingsReset> {
  if (raw === undefined || raw === null) return ok(defaultSettings());
  if (typeof raw !== "object" || Array.isArray(raw))
    return err({ message: "settings are not an object", settings: defaultSettings() });
  let candidate: unknown = structuredClone(raw);
  const reset: string[] = [];
  for (let attempt = 0; attempt < 50; attempt++) {
    const result = settingsSchema.safeParse(candidate);
    if (result.success) {
      return reset.length
        ? err({
            message: `invalid ${reset.join("; ")}; reset to the default`,
            settings: result.data,
          })
        : ok(result.data);
    }
    const issue = result.error.issues[0];
    if (!issue || issue.path.length === 0) break;
    reset.push(
      `setting "${issue.path.filter((p) => typeof p !== "number").join(".")}": ${issue.message}`,
    );
    // Reset the whole list when one element is bad (a list is one setting), else the one key.
    const firstIndex = issue.path.findIndex((p) => typeof p === "number");
    candidate = withoutPath(
      candidate,
      issue.path.slice(0, firstIndex === -1 ? issue.path.length : firstIndex),
    );
  }
  return err({
    message: `invalid settings: ${reset.join("; ") || "unknown error"}; using the defaults`,
    settings: defaultSettings(),
  });
}

/** The settings to run with after {@link parseSettings}: the parsed ones, or those reset to defaults. */
export function usableSettings(parsed: Result<Settings, SettingsReset>): Settings {
  return parsed.ok ? parsed.value : parsed.error.settings;
}

/** A copy of `value` without the key at `path` (so its default applies). */
function withoutPath(value: unknown, path: readonly PropertyKey[]): unknown {
  const [head, ...rest] = path;
  if (head === undefined || typeof value !== "object" || value === null) return value;
  const copy: Record<PropertyKey, unknown> = { ...(value as Record<PropertyKey, unknown>) };
  if (rest.length === 0 || typeof copy[head] !== "object") delete copy[head];
  else copy[head] = withoutPath(copy[head], rest);
  return copy;
}
