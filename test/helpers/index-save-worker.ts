// A saving process for the saved-index test (test/node/index-save-processes.process.test.ts): writes
// `rounds` notes tagged `tag`, each indexed and saved (a delta record appended, or the index
// rewritten when its delta follows another base), every tenth round a rebuild (a whole rewrite).
// Usage: node --import tsx index-save-worker.ts <vault> <tag> <rounds>
import { statSync } from "node:fs";
import { join } from "node:path";
import { NodeVault } from "../../src/node/node-vault";
import { vaultIndexStore } from "../../src/node/index-store";
import { MemoryLayout } from "../../src/core/layout";
import { defaultSettings } from "../../src/core/settings";
import { SearchService } from "../../src/core/search/search-service";
import { uniqueWord } from "./index-save-words";

const [root = "", tag = "", roundsArg] = process.argv.slice(2);
const vault = new NodeVault(root);
const service = new SearchService({
  vault,
  layout: new MemoryLayout(defaultSettings()),
  store: vaultIndexStore(vault),
  yieldToHost: () => new Promise((resolve) => setImmediate(resolve)),
});
await service.open();
let failed = 0;
for (let i = 0; i < Number(roundsArg); i++) {
  const path = `Memory/Agents/me/Journal/2026-05-01-${tag}${i}.md`;
  try {
    await vault.process(path, () => `# ${tag} ${i}\n\n${uniqueWord(tag, i)}\n`);
    const st = statSync(join(root, path));
    await service.update(path, { mtime: st.mtimeMs, size: st.size });
    if (i % 10 === 9) await service.rebuild();
    await service.save();
  } catch (err) {
    failed++;
    process.stderr.write(`${(err as Error).message}\n`);
  }
}
process.stdout.write(JSON.stringify({ failed }));
