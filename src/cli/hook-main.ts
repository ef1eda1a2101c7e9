/**
 * The hooks' own bundle, dist/hook-main.cjs (docs/decisions.md, "A bundle of its own for the hooks
 * that read"; CommonJS, loaded by the launcher with V8's code cache, "The hooks' bundle runs from a
 * code cache"): `hook claude-code …` with a `SessionStart` or `UserPromptSubmit` event that no
 * server answered. It holds what those events need (settings, the saved index, search, the
 * brief), not the other commands, the MCP server or the model clients, so Node loads a third of
 * the full CLI's code. The launcher (src/cli/launcher.ts) sends only those events here; any other
 * command line is handed to the full CLI (`loadFull`, the launcher's import of dist/cli-main.mjs:
 * a script V8 runs from a code cache has no `import()` of its own).
 */
import { errorMessage } from "../core/errors";
import { oneLine } from "../node/one-line";
import { servedHookVault } from "../serve/client";
import { readOnlyEvent, runHookWith } from "./hook-read";
import { streamWriter, watchStream } from "./process-io";

/** The full CLI, for a command line this bundle does not run. */
export interface FullCli {
  runCli(argv: string[]): Promise<void>;
}

/**
 * Runs `argv` (without node and script; the event as its last argument, as the launcher passes
 * it) as the process, like the full CLI's `runCli`: output to the process's streams, exit code on
 * `process.exitCode`, always 0 for a hook. A command line that is not a read-only Claude Code
 * hook is run by the full CLI, which `loadFull` loads.
 */
export async function runHookCli(argv: string[], loadFull: () => Promise<FullCli>): Promise<void> {
  if (servedHookVault(argv) === null) return (await loadFull()).runCli(argv);
  watchStream(process.stdout, "stdout");
  watchStream(process.stderr, "stderr");
  const io = {
    out: streamWriter(process.stdout),
    err: streamWriter(process.stderr),
    env: process.env,
  };
  try {
    await runHookWith(argv.slice(1), io, {
      claudeCode: async (ctx, out, agent, event, budget) => {
        await readOnlyEvent(ctx, out, agent, event, budget);
      },
      // Not reached: servedHookVault is null for `hook codex`.
      codex: () => Promise.resolve(),
    });
  } catch (err) {
    io.err(oneLine(`agent-memory: ${errorMessage(err)}`));
  }
  // A hook never exits 2: Claude Code takes 2 for "block" (docs/agents.md, "A hook never breaks a session").
  process.exitCode = 0;
}
