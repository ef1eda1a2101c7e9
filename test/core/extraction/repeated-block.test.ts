// A paragraph written again later in a journal, word for word (docs/sync.md, "Stress": the same
// fact learned twice): its new block id must be written on the new paragraph, not be dropped
// because the first one, of the same text, already has an id, or the entry citing it links to
// nothing (`broken-link` in health).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { listTopicEntries } from "../../../src/core/knowledge/callouts";
import { existingBlockIds } from "../../../src/core/journal/blocks";
import { extractOffline } from "../../helpers/offline-extract";
import { tempVault } from "../../helpers/temp-vault";

const J = "Memory/Agents/link/Journal/2026-11-24.md";
const TOPIC = "Memory/Agents/link/Knowledge/learning/Build.md";
const now = () => new Date("2026-11-24T10:00:00Z");
const FACT = "Learned: the build takes 40 minutes on the CI runner.";

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

it("the same paragraph again later gets its own id, and every source of the fact resolves", async () => {
  const t = tempVault({ [J]: `# 2026-11-24\n\n## Build\n\n${FACT}\n` });
  cleanup = t.cleanup;
  const run = () => extractOffline(t.vault, J, now);
  await run();
  const read = (p: string) => readFileSync(join(t.root, p), "utf8");
  writeFileSync(join(t.root, J), `${read(J)}\n## Build\n\n${FACT}\n`);
  await run();
  const journal = read(J);
  expect(journal.split("\n").filter((l) => l.startsWith(FACT) && / \^am-/.test(l))).toHaveLength(2);
  const ids = existingBlockIds(journal);
  const cited = listTopicEntries(read(TOPIC)).flatMap((e) =>
    e.sources.map((s) => /#\^(am-[a-z0-9]+)/.exec(s)?.[1] ?? s),
  );
  expect(cited).toHaveLength(2);
  expect(cited.filter((id) => !ids.has(id))).toEqual([]);
});
