// Real temporary folders for core tests (a real file system, not a mock;
// docs/testing.md, "How the suite is organised").
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { NodeVault } from "../../src/node/node-vault";

/** A temporary vault folder with the given files; `cleanup()` removes it. */
export function tempVault(files: Record<string, string> = {}): {
  root: string;
  vault: NodeVault;
  write: (path: string, text: string) => void;
  cleanup: () => void;
} {
  const root = mkdtempSync(join(tmpdir(), "am-test-"));
  const write = (path: string, text: string) => {
    const abs = join(root, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text, "utf8");
  };
  for (const [path, text] of Object.entries(files)) write(path, text);
  return {
    root,
    vault: new NodeVault(root),
    write,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** A temporary copy of the sample vault `examples/vault`. */
export function sampleVaultCopy(): { root: string; vault: NodeVault; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), "am-sample-"));
  cpSync(fileURLToPath(new URL("../../examples/vault", import.meta.url)), root, {
    recursive: true,
  });
  return {
    root,
    vault: new NodeVault(root),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}
