/**
 * The LLM extractor (docs/architecture.md, "Extractors"): windows → one chat completion per window
 * → reply parsing → evidence check → self-check gate → rescan (or merge request) → merge with the
 * offline extractor's explicit conventions. Reports usage (calls, tokens, wall time, cost) and what
 * the gate did. Any server failure after retries throws {@link LlmError}; the caller then writes
 * nothing.
 */
import { LlmError } from "../errors";
import type { JournalBlock } from "../journal/blocks";
import {
  createChatClient,
  type ChatClient,
  type ChatMessage,
  type FetchLike,
  type ResponseFormatMode,
  type Waiting,
} from "../llm/client";
import { UsageMeter } from "../llm/usage";
import type { Settings } from "../settings";
import { countSections, headingTexts, runGate, type GateCheckName, type GateOutcome } from "./gate";
import { checkReplyItem, prepareItemCheck, type ItemCheck } from "./item-check";
import { mergeModelItems, mergeWithConventions } from "./merge";
import {
  REPLY_JSON_SCHEMA,
  buildExtractionMessages,
  buildJournalMessage,
  buildMergeMessages,
  buildRescanMessages,
} from "./prompt";
import { parseReply } from "./reply";
import type {
  ExtractedItem,
  ExtractionInput,
  ExtractionResult,
  Extractor,
  GateReport,
  RejectedItem,
} from "./types";
import { halveWindow, splitWindows, type JournalWindow } from "./windows";

/** Base URL used when none is configured but the OpenAI extractor was chosen (e.g. only a key is set). */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";

export interface LlmExtractorOptions {
  /** Reads `llm.*` (timeout, retries, window and context budgets, temperature, prices) and `gate.*`. */
  settings: Settings;
  /** API key; empty for local servers that need none. Never logged or put in a message. */
  apiKey: string;
  /** OpenAI-compatible base URL; empty means {@link OPENAI_BASE_URL}. */
  baseUrl: string;
  model: string;
  /** Global fetch in the CLI; `requestUrlFetch(requestUrl)` in the plugin. */
  fetch?: FetchLike;
  /**
   * Explicit conventions, always honoured (docs/architecture.md, "Extractors"); usually the
   * `OfflineExtractor`.
   */
  offline?: Extractor;
  /** First backoff delay between retries, milliseconds (default 500). */
  retryBaseMs?: number;
  /** Sleep used for backoff, for tests. */
  sleep?: (ms: number) => Promise<void>;
  /** Clock in milliseconds, for wall time. */
  now?: () => number;
  /** First `response_format` to try (default: structured outputs, falling back on 400). */
  responseFormat?: ResponseFormatMode;
  /** A ready client (tests, or a host sharing one); otherwise one is created from the fields above. */
  client?: ChatClient;
  /** Per-request timeout, milliseconds; default `settings.llm.timeoutMs` (the CLI's `--timeout`). */
  timeoutMs?: number;
  /**
   * Told while a request waits for its reply (the CLI prints it on stderr; docs/decisions.md,
   * "Progress while waiting for a model").
   */
  onWaiting?: (waiting: Waiting) => void;
}

type PassKind =
  { kind: "extract" } | { kind: "rescan"; reasons: string[] } | { kind: "merge"; reason: string };

/** A window and the reasons the gate gives for it. */
interface Target {
  window: JournalWindow;
  reasons: string[];
}

/**
 * Extractor backed by an OpenAI-compatible chat API (docs/architecture.md, "Extractors").
 * `extract` throws {@link LlmError} when the server fails after retries, times out, keeps replying
 * with something that is not JSON, or cuts a reply off even after the window was split
 * (test/core/extraction/llm-extractor.test.ts, "case 09 (b): …").
 */
export class LlmExtractor implements Extractor {
  readonly name = "openai" as const;
  private readonly client: ChatClient;

  constructor(private readonly options: LlmExtractorOptions) {
    const llm = options.settings.llm;
    this.client =
      options.client ??
      createChatClient({
        baseUrl: options.baseUrl || OPENAI_BASE_URL,
        apiKey: options.apiKey,
        model: options.model,
        timeoutMs: options.timeoutMs ?? llm.timeoutMs,
        maxRetries: llm.maxRetries,
        ...(options.onWaiting ? { onWaiting: options.onWaiting } : {}),
        ...(options.fetch ? { fetch: options.fetch } : {}),
        ...(options.retryBaseMs !== undefined ? { retryBaseMs: options.retryBaseMs } : {}),
        ...(options.sleep ? { sleep: options.sleep } : {}),
        ...(options.now ? { now: options.now } : {}),
        ...(options.responseFormat ? { responseFormat: options.responseFormat } : {}),
      });
  }

  /** The server this extractor talks to (for reports; never includes the key). */
  get baseUrl(): string {
    return this.client.baseUrl;
  }

  async extract(input: ExtractionInput): Promise<ExtractionResult> {
    if (!this.client.model.trim()) {
      throw new LlmError(
        `no model name set for ${this.client.baseUrl}; set AGENT_MEMORY_LLM_MODEL or the model setting`,
        this.client.baseUrl,
      );
    }
    return new ExtractionRun(this.client, this.options, input).run();
  }
}

/** The state of one `extract` call. */
class ExtractionRun {
  private readonly meter: UsageMeter;
  private readonly notes = new Set<string>();
  private readonly rejected: RejectedItem[] = [];
  private readonly check: ItemCheck;
  private readonly windows: JournalWindow[];
  private offlineItems: ExtractedItem[] = [];
  private modelItems: ExtractedItem[] = [];

  constructor(
    private readonly client: ChatClient,
    private readonly options: LlmExtractorOptions,
    private readonly input: ExtractionInput,
  ) {
    this.meter = new UsageMeter(options.settings.llm);
    this.check = prepareItemCheck(
      input.blocks,
      input.context.openItems.map((o) => o.id),
    );
    this.windows = splitWindows(input.body, input.blocks, options.settings.llm.windowTokens);
  }

  async run(): Promise<ExtractionResult> {
    if (this.options.offline) {
      const offline = await this.options.offline.extract(this.input);
      this.offlineItems = offline.items;
      this.rejected.push(...offline.rejected);
      for (const n of offline.notes) this.notes.add(n);
    }
    if (this.windows.length > 1)
      this.notes.add(
        `long journal: ${this.windows.length} windows of at most ${this.options.settings.llm.windowTokens} tokens`,
      );

    for (const window of this.windows) {
      const found = await this.pass(window, { kind: "extract" });
      this.modelItems = mergeModelItems(this.modelItems, found ?? []).merged;
    }
    let passes = this.windows.length ? 1 : 0;

    const first = this.gate(this.all(), this.input.body, this.input.blocks);
    const report: GateReport = {
      fired: [...first.fired],
      before: first.count,
      after: first.count,
      categoriesBefore: first.categories,
      categoriesAfter: first.categories,
    };
    let outcome = first;
    if (outcome.action === "merge" && this.windows.length) {
      await this.mergeRequest(outcome);
      outcome = this.gate(this.all(), this.input.body, this.input.blocks);
    }
    for (
      let rescan = 1;
      outcome.action === "rescan" &&
      rescan <= this.options.settings.gate.maxRescans &&
      this.windows.length;
      rescan++
    ) {
      for (const target of this.targets(outcome, "rescan")) {
        const found = await this.pass(target.window, { kind: "rescan", reasons: target.reasons });
        this.modelItems = mergeModelItems(this.modelItems, found ?? []).merged;
      }
      passes++;
      outcome = this.gate(this.all(), this.input.body, this.input.blocks);
      if (outcome.fired.length)
        this.notes.add(
          `after rescan ${rescan} the self-check still fired: ${outcome.fired.join(", ")}`,
        );
    }

    const items = this.all();
    report.after = items.length;
    report.categoriesAfter = new Set(items.map((i) => i.category)).size;
    const seen = new Set<string>();
    const rejected = this.rejected.filter((r) => {
      const key = JSON.stringify([r.reason, r.category, r.text, r.evidence]);
      return seen.has(key) ? false : (seen.add(key), true);
    });
    return {
      items,
      rejected,
      passes,
      gate: report,
      usage: this.meter.snapshot(),
      notes: [...this.notes],
    };
  }

  /** Offline items first-class, then the model's, in document order. */
  private all(): ExtractedItem[] {
    return mergeWithConventions(this.offlineItems, this.modelItems)
      .map((item, order) => ({ item, order }))
      .sort((a, b) => a.item.blockIndex - b.item.blockIndex || a.order - b.order)
      .map((x) => x.item);
  }

  private gate(
    items: readonly ExtractedItem[],
    text: string,
    blocks: readonly JournalBlock[],
  ): GateOutcome {
    return runGate(
      {
        title: this.input.title,
        text,
        headings: headingTexts(blocks),
        sections: countSections(blocks),
        items,
      },
      this.options.settings.gate,
    );
  }

  private itemsIn(
    window: JournalWindow,
    items: readonly ExtractedItem[] = this.all(),
  ): ExtractedItem[] {
    return items.filter((i) => i.blockIndex >= window.blockStart && i.blockIndex < window.blockEnd);
  }

  /**
   * The windows to send again, with their reasons. A one-window journal gets the document's reasons.
   * With several windows each is checked on its own; when a document-level check fired that no window
   * reproduces (e.g. "no knowledge item"), every window is sent with the document's reasons.
   */
  private targets(outcome: GateOutcome, action: "rescan" | "merge"): Target[] {
    const reasonsOf = (o: GateOutcome) => o.checks.filter((c) => c.fired).map((c) => c.reason);
    if (this.windows.length === 1 && this.windows[0])
      return [{ window: this.windows[0], reasons: reasonsOf(outcome) }];
    const perWindow: Target[] = [];
    const all = this.all();
    const wanted = (name: GateCheckName) =>
      outcome.fired.includes(name) && (action === "merge") === (name === "above-band");
    for (const window of this.windows) {
      const blocks = this.input.blocks.slice(window.blockStart, window.blockEnd);
      const local = this.gate(this.itemsIn(window, all), window.text, blocks);
      // Only what the whole journal lacks: a window without a decision is fine when another has one.
      const reasons = local.checks.filter((c) => c.fired && wanted(c.name)).map((c) => c.reason);
      if (reasons.length) perWindow.push({ window, reasons });
    }
    return perWindow.length
      ? perWindow
      : this.windows.map((window) => ({ window, reasons: reasonsOf(outcome) }));
  }

  /** Asks the model to merge a list far above the band; the merged list replaces the model's items. */
  private async mergeRequest(outcome: GateOutcome): Promise<void> {
    for (const target of this.targets(outcome, "merge")) {
      const before = this.itemsIn(target.window, this.modelItems);
      if (before.length < 2) continue;
      const reason = target.reasons.at(-1) ?? "";
      const merged = await this.pass(target.window, { kind: "merge", reason });
      if (!merged || merged.length === 0) {
        this.notes.add("the merge request gave no usable list; the items were kept as found");
        continue;
      }
      const keep = this.modelItems.filter((i) => !before.includes(i));
      this.modelItems = mergeModelItems(keep, merged).merged;
      this.notes.add(`merge request: ${before.length} items merged into ${merged.length}`);
    }
  }

  private messages(window: JournalWindow, pass: PassKind): ChatMessage[] {
    const llm = this.options.settings.llm;
    const index = this.windows.indexOf(window);
    const journal = buildJournalMessage(window, {
      title: this.input.title,
      path: this.input.path,
      context: this.input.context,
      contextTokens: llm.contextTokens,
      ...(index >= 0 ? { part: { index, count: this.windows.length } } : {}),
    });
    if (pass.kind === "rescan")
      return buildRescanMessages(journal, this.itemsIn(window), pass.reasons);
    if (pass.kind === "merge")
      return buildMergeMessages(journal, this.itemsIn(window, this.modelItems), pass.reason);
    return buildExtractionMessages(journal);
  }

  /**
   * One pass over one window: a chat completion, its reply read and checked.
   * A reply cut off by the output limit is never used: the window is split in two and each half is
   * asked again once; a second cut-off throws (test/core/extraction/llm-extractor.test.ts, "case 09 (b): …"). A
   * reply without JSON is asked for once more. A merge request that fails either way returns `null`
   * and the list is kept.
   * @returns the accepted items, or `null` for a merge request that gave nothing usable.
   */
  private async pass(
    window: JournalWindow,
    pass: PassKind,
    split = false,
  ): Promise<ExtractedItem[] | null> {
    const llm = this.options.settings.llm;
    for (let attempt = 1; ; attempt++) {
      const reply = await this.client.complete({
        messages: this.messages(window, pass),
        jsonSchema: REPLY_JSON_SCHEMA,
        temperature: llm.temperature,
        ...(this.input.signal ? { signal: this.input.signal } : {}),
      });
      this.meter.add(reply);
      for (const n of reply.notes) this.notes.add(n);
      if (reply.estimatedUsage)
        this.notes.add("the server reported no token usage; token counts are estimates");

      if (reply.finishReason === "length") {
        if (pass.kind === "merge") {
          this.notes.add(
            "the merge reply was cut off by the output limit; the items were kept as found",
          );
          return null;
        }
        const halves = split ? null : halveWindow(window, this.input.body, this.input.blocks);
        if (!halves) {
          throw new LlmError(
            `the model's reply at ${this.client.baseUrl} was cut off by its output limit (finish_reason "length") ${split ? "even after the journal window was split" : "and the window cannot be split"}; nothing was saved. Raise the model's output limit or lower the window size (llm.windowTokens, now ${llm.windowTokens})`,
            this.client.baseUrl,
          );
        }
        this.notes.add(
          "a reply was cut off by the output limit; its window was split in two and asked again",
        );
        const out: ExtractedItem[] = [];
        for (const half of halves) out.push(...((await this.pass(half, pass, true)) ?? []));
        return out;
      }

      const parsed = parseReply(reply.content);
      if (!parsed.ok) {
        if (attempt < 2) continue;
        if (pass.kind === "merge") return null;
        if (pass.kind === "rescan") {
          this.notes.add(
            `a rescan reply could not be read (${parsed.error}); the first pass's items were kept`,
          );
          return [];
        }
        throw new LlmError(
          `the model's reply at ${this.client.baseUrl} could not be read twice: ${parsed.error}; check that the model "${this.client.model}" can follow JSON instructions`,
          this.client.baseUrl,
        );
      }
      this.rejected.push(...parsed.value.rejected);
      const accepted: ExtractedItem[] = [];
      for (const item of parsed.value.items) {
        const checked = checkReplyItem(item, this.check);
        if ("item" in checked) accepted.push(checked.item);
        else this.rejected.push(checked.rejected);
      }
      return mergeModelItems([], accepted).merged;
    }
  }
}
