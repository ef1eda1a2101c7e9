/**
 * The hooks' own bundle, dist/hook-main.mjs (docs/decisions.md, "A bundle of its own for the hooks
 * that read"): `hook claude-code …` with a `SessionStart` or `UserPromptSubmit` event that no
 * server answered. It holds what those events need (settings, the saved index, search, the
 * brief), not the other commands, the MCP server or the model clients, so Node loads a third of
 * the full CLI's code. The launcher (src/cli/launcher.ts) sends only those events here; any other
 * command line is handed to the full CLI (dist/cli-main.mjs beside this file).
 */
import * as nodePath from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { errorMessage } from "../core/errors";
import { oneLine } from "../node/one-line";
import { servedHookVault } from "../serve/client";
import { readOnlyEvent, runHookWith } from "./hook-read";
import { streamWriter, watchStream } from "./process-io";

/** The full CLI, for a command line this bundle does not run. */
interface FullCli {
  runCli(argv: string[]): Promise<void>;
}

/**
 * Runs `argv` (without node and script; the event as its last argument, as the launcher passes
 * it) as the process, like the full CLI's `runCli`: output to the process's streams, exit code on
 * `process.exitCode`, always 0 for a hook. A command line that is not a read-only Claude Code
 * hook is run by the full CLI.
 */
export async function runHookCli(argv: string[]): Promise<void> {
  if (servedHookVault(argv) === null) {
    const here = nodePath.dirname(fileURLToPath(import.meta.url));
    // eslint-disable-next-line no-unsanitized/method -- a fixed file beside this one, not user input
    const full = (await import(pathToFileURL(nodePath.join(here, "cli-main.mjs")).href)) as FullCli;
    return full.runCli(argv);
  }
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
