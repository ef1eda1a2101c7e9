// A writer process for the adapter stress test (test/node/write-stress.process.test.ts): appends `count` lines
// tagged `tag` to one note through NodeVault.process, each its own locked read-modify-write.
// Usage: node --import tsx append-worker.ts <vault> <note> <tag> <count>
import { NodeVault } from "../../src/node/node-vault";

const [root, note, tag, countArg] = process.argv.slice(2);
const vault = new NodeVault(root ?? "", { lock: { staleMs: 2000 } });
const count = Number(countArg);
let failed = 0;
for (let i = 0; i < count; i++) {
  try {
    await vault.process(note ?? "", (cur) => `${cur ?? ""}${tag} line ${i}\n`);
  } catch (err) {
    failed++;
    process.stderr.write(`${(err as Error).message}\n`);
  }
}
process.stdout.write(JSON.stringify({ failed }));
