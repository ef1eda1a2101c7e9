/**
 * Token estimates without a tokenizer. Used for window budgets (docs/architecture.md,
 * "Extractors"), the context budget (docs/architecture.md, "The checklist") and as a fallback when
 * a server reports no usage (docs/architecture.md, "Plan and apply").
 */

/** Han, Hiragana, Katakana and Hangul: scripts written without spaces between words. */
export const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_GLOBAL = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

/** Number of CJK characters in `text`. */
export function countCjk(text: string): number {
  return text.match(CJK_GLOBAL)?.length ?? 0;
}

/**
 * Rough token count of `text`: one token per CJK character and one per four other characters,
 * which is close to (slightly above) what GPT-style BPE tokenizers give for English and Chinese.
 * @returns an integer ≥ 0.
 */
export function estimateTokens(text: string): number {
  const cjk = countCjk(text);
  return cjk + Math.ceil((text.length - cjk) / 4);
}
