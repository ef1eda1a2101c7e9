/**
 * Long journals (docs/architecture.md, "Extractors"): the journal is cut at block boundaries into
 * windows that fit a token budget (settings `llm.windowTokens`), one chat completion per window and
 * pass. A block larger than the budget is cut by lines, and a line larger than the budget by
 * characters, so any journal (1 MB included) is processed. A window's text is the body as written,
 * so quotes from it are verbatim.
 */
import type { JournalBlock } from "../journal/blocks";
import { CJK_CHAR, estimateTokens } from "../llm/tokens";

/** A part of the journal sent in one chat completion. */
export interface JournalWindow {
  /** The journal text of the window, exactly as in the body. */
  text: string;
  /** Blocks covered, `[blockStart, blockEnd)`; a window cut from one large block covers just it. */
  blockStart: number;
  blockEnd: number;
  /** Headings above the window's first block (context when the window starts mid-section). */
  headings: string[];
  /** Estimated tokens of `text`. */
  tokens: number;
}

/** Cuts text into pieces of at most `budget` estimated tokens, at line ends where possible. */
function cutText(text: string, budget: number): string[] {
  if (estimateTokens(text) <= budget) return [text];
  const pieces: string[] = [];
  let current = "";
  const flush = () => {
    if (current.trim()) pieces.push(current);
    current = "";
  };
  for (const line of text.split("\n")) {
    const candidate = current ? `${current}\n${line}` : line;
    if (estimateTokens(candidate) <= budget) {
      current = candidate;
      continue;
    }
    flush();
    if (estimateTokens(line) <= budget) {
      current = line;
      continue;
    }
    // One line over the budget: cut by code points (never inside a surrogate pair), counting
    // incrementally so a megabyte-long line stays linear.
    let chunk: string[] = [];
    let cjk = 0;
    let other = 0;
    for (const ch of line) {
      const isCjk = CJK_CHAR.test(ch);
      const tokens = cjk + (isCjk ? 1 : 0) + Math.ceil((other + (isCjk ? 0 : ch.length)) / 4);
      if (tokens > budget && chunk.length > 0) {
        pieces.push(chunk.join(""));
        chunk = [];
        cjk = 0;
        other = 0;
      }
      chunk.push(ch);
      if (isCjk) cjk++;
      else other += ch.length;
    }
    current = chunk.join("");
  }
  flush();
  return pieces;
}

function linesOf(lines: readonly string[], from: number, to: number): string {
  return lines.slice(from, to).join("\n");
}

/**
 * Splits a journal into windows of at most `windowTokens` estimated tokens, at block boundaries.
 * A short journal is one window. Blank bodies give no windows.
 * @param body the journal body the blocks were split from (frontmatter removed).
 * @param blocks from `splitBlocks(body)`.
 * @param windowTokens budget per window (estimated tokens, ≥ 1).
 */
export function splitWindows(
  body: string,
  blocks: readonly JournalBlock[],
  windowTokens: number,
): JournalWindow[] {
  const budget = Math.max(1, windowTokens);
  const lines = body.split("\n");
  const windows: JournalWindow[] = [];
  let first = -1;
  let last = -1;
  let tokens = 0;
  const emit = (from: number, to: number) => {
    const a = blocks[from];
    const b = blocks[to];
    if (!a || !b) return;
    const text = linesOf(lines, a.startLine, b.endLine);
    windows.push({
      text,
      blockStart: from,
      blockEnd: to + 1,
      headings: [...a.headings],
      tokens: estimateTokens(text),
    });
  };
  const flush = () => {
    if (first >= 0) emit(first, last);
    first = -1;
    last = -1;
    tokens = 0;
  };
  /** Closes the window, but carries trailing headings over: a heading belongs with what follows it. */
  const flushKeepingHeadings = () => {
    let cut = last;
    while (cut > first && blocks[cut]?.kind === "heading") cut--;
    if (cut === last) return flush();
    const carryFrom = cut + 1;
    const carryTo = last;
    emit(first, cut);
    first = carryFrom;
    last = carryTo;
    const a = blocks[carryFrom];
    const b = blocks[carryTo];
    tokens = a && b ? estimateTokens(linesOf(lines, a.startLine, b.endLine)) : 0;
  };
  blocks.forEach((block, i) => {
    const blockText = linesOf(lines, block.startLine, block.endLine);
    const blockTokens = estimateTokens(blockText);
    if (blockTokens > budget) {
      flush();
      for (const piece of cutText(blockText, budget)) {
        windows.push({
          text: piece,
          blockStart: i,
          blockEnd: i + 1,
          headings: [...block.headings],
          tokens: estimateTokens(piece),
        });
      }
      return;
    }
    // Blank lines between blocks count one token each, so the running sum never undercounts.
    const gap =
      first >= 0 ? Math.max(0, block.startLine - (blocks[last]?.endLine ?? block.startLine)) : 0;
    if (first >= 0 && tokens + gap + blockTokens > budget) flushKeepingHeadings();
    if (first >= 0 && tokens + blockTokens > budget) flush();
    tokens += (first >= 0 ? gap : 0) + blockTokens;
    if (first < 0) first = i;
    last = i;
  });
  flush();
  return windows.filter((w) => w.text.trim() !== "");
}

/**
 * Cuts a window in two (test/core/extraction/llm-extractor.test.ts, "case 09 (b): …": a reply cut off by the output
 * limit is retried on halves). Splits at the block boundary nearest the middle; a one-block window
 * is split by lines, then by characters.
 * @returns two windows, or `null` when the window is too small to split.
 */
export function halveWindow(
  window: JournalWindow,
  body: string,
  blocks: readonly JournalBlock[],
): [JournalWindow, JournalWindow] | null {
  const lines = body.split("\n");
  if (window.blockEnd - window.blockStart >= 2) {
    const startBlock = blocks[window.blockStart];
    const endBlock = blocks[window.blockEnd - 1];
    if (
      startBlock &&
      endBlock &&
      linesOf(lines, startBlock.startLine, endBlock.endLine) === window.text
    ) {
      let best = window.blockStart + 1;
      let bestGap = Infinity;
      for (let i = window.blockStart + 1; i < window.blockEnd; i++) {
        const cut = blocks[i];
        if (!cut) continue;
        const gap = Math.abs(
          estimateTokens(linesOf(lines, startBlock.startLine, cut.startLine)) - window.tokens / 2,
        );
        if (gap < bestGap) {
          bestGap = gap;
          best = i;
        }
      }
      const mid = blocks[best];
      const prevEnd = blocks[best - 1];
      if (mid && prevEnd) {
        const left = linesOf(lines, startBlock.startLine, prevEnd.endLine);
        const right = linesOf(lines, mid.startLine, endBlock.endLine);
        return [
          {
            text: left,
            blockStart: window.blockStart,
            blockEnd: best,
            headings: window.headings,
            tokens: estimateTokens(left),
          },
          {
            text: right,
            blockStart: best,
            blockEnd: window.blockEnd,
            headings: [...mid.headings],
            tokens: estimateTokens(right),
          },
        ];
      }
    }
  }
  const textLines = window.text.split("\n");
  let left: string;
  let right: string;
  if (textLines.length >= 2) {
    const half = Math.ceil(textLines.length / 2);
    left = textLines.slice(0, half).join("\n");
    right = textLines.slice(half).join("\n");
  } else {
    const chars = [...window.text];
    if (chars.length < 2) return null;
    const half = Math.ceil(chars.length / 2);
    left = chars.slice(0, half).join("");
    right = chars.slice(half).join("");
  }
  if (!left.trim() || !right.trim()) return null;
  const part = (text: string): JournalWindow => ({
    ...window,
    headings: [...window.headings],
    text,
    tokens: estimateTokens(text),
  });
  return [part(left), part(right)];
}
