// Approval files (docs/testing.md, "Approval files"): a generated text compared whole with the
// copy a person approved, so a format change anywhere in it fails a test and shows up in review.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";

/** The environment variable that turns comparing into re-approving (`npm run approve`). */
export const UPDATE_APPROVALS = "UPDATE_APPROVALS";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

/** Whether this run re-approves: `UPDATE_APPROVALS=1` (what `npm run approve` sets). */
export function updatingApprovals(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[UPDATE_APPROVALS] === "1";
}

/**
 * Compares `actual` with the approved file at `approved` (a `file:` URL, usually
 * `new URL("./approved/<name>", import.meta.url)`), byte for byte.
 *
 * - When re-approving (`UPDATE_APPROVALS=1`), writes `actual` to the file (creating its folder)
 *   and passes; the diff of the approved file is what a reviewer reads.
 * - Otherwise fails with vitest's diff when the texts differ, and with a one-line reason naming
 *   the file and `npm run approve` when the file does not exist yet.
 *
 * `actual` is stored as given; end it with a newline so the file is a well-formed text file.
 * @param actual the whole generated text (a note, a command's stdout, a JSON listing…)
 * @param approved where the approved copy lives, under a `test/**\/approved/` folder
 * @param env the environment read for `UPDATE_APPROVALS` (the process's by default)
 */
export function expectApproved(
  actual: string,
  approved: URL,
  env: NodeJS.ProcessEnv = process.env,
): void {
  const path = fileURLToPath(approved);
  const name = relative(repoRoot, path);
  if (updatingApprovals(env)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  if (!existsSync(path)) {
    throw new Error(`${name} is not approved yet: run npm run approve and review the new file`);
  }
  expect(actual, `${name} (npm run approve re-approves it)`).toBe(readFileSync(path, "utf8"));
}
