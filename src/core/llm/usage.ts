/**
 * Usage accounting for a run (docs/architecture.md, "Plan and apply"): calls, prompt and completion
 * tokens, wall time, cost.
 */
import type { Usage } from "../extraction/types";

/** Prices in USD per million tokens; 0 means unknown (settings `llm.price*PerM`). */
export interface Prices {
  pricePromptPerM: number;
  priceCompletionPerM: number;
}

/** Accumulates the usage of several chat completions. */
export class UsageMeter {
  private calls = 0;
  private promptTokens = 0;
  private completionTokens = 0;
  private wallMs = 0;

  constructor(private readonly prices: Prices) {}

  /** Records one chat completion (retries included in `wallMs`, milliseconds). */
  add(call: { promptTokens: number; completionTokens: number; wallMs: number }): void {
    this.calls += 1;
    this.promptTokens += call.promptTokens;
    this.completionTokens += call.completionTokens;
    this.wallMs += call.wallMs;
  }

  /** The totals so far; `costUsd` only when at least one price is set. */
  snapshot(): Usage {
    const usage: Usage = {
      calls: this.calls,
      promptTokens: this.promptTokens,
      completionTokens: this.completionTokens,
      wallMs: Math.round(this.wallMs),
    };
    const cost = costUsd(usage, this.prices);
    if (cost !== undefined) usage.costUsd = cost;
    return usage;
  }
}

/**
 * Cost of `usage` in USD, rounded to 1e-6; `undefined` when neither price is set.
 */
export function costUsd(
  usage: Pick<Usage, "promptTokens" | "completionTokens">,
  prices: Prices,
): number | undefined {
  if (prices.pricePromptPerM <= 0 && prices.priceCompletionPerM <= 0) return undefined;
  const usd =
    (usage.promptTokens / 1_000_000) * prices.pricePromptPerM +
    (usage.completionTokens / 1_000_000) * prices.priceCompletionPerM;
  return Math.round(usd * 1e6) / 1e6;
}
