/** A generated Claude Code transcript for the benchmarks (bench/hooks.ts, bench/ingest.ts). */

/**
 * A Claude Code transcript (JSON Lines) of `turns` turns, each a request, a `Bash` tool use, its
 * result and a final text with a "Next steps" list; the first tool result is `bigBytes` long.
 */
export function claudeTranscript(turns: number, bigBytes: number, sessionId: string): string {
  const lines: string[] = [];
  const line = (type: string, uuid: string, content: unknown) =>
    JSON.stringify({
      type,
      uuid,
      sessionId,
      cwd: "/w",
      timestamp: "2026-11-30T10:00:00Z",
      message: { role: type, content },
    });
  for (let i = 0; i < turns; i++) {
    lines.push(line("user", `u${i}`, `Request ${i}: update the parser for case ${i}.`));
    lines.push(
      line("assistant", `a${i}`, [
        { type: "tool_use", id: `t${i}`, name: "Bash", input: { command: `npm test -- case${i}` } },
      ]),
    );
    const out = i === 0 ? "x".repeat(bigBytes) : `ok ${i}`;
    lines.push(
      line("user", `r${i}`, [{ type: "tool_result", tool_use_id: `t${i}`, content: out }]),
    );
    lines.push(
      line("assistant", `b${i}`, [
        { type: "text", text: `Case ${i} passes.\n\n## Next steps\n- Check case ${i + 1}` },
      ]),
    );
  }
  return `${lines.join("\n")}\n`;
}
