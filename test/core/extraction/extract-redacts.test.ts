// Extraction redacts what it copies from a hand-written journal (docs/agents.md, "What never is";
// docs/mcp.md, "Secrets"): a key in a journal line reaches no tracker or topic note, while the
// journal itself, a person's own note, keeps its text.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { applyPlan, planExtraction } from "../../../src/core/extraction/pipeline";
import { OfflineExtractor } from "../../../src/core/extraction/offline";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import { extractOffline } from "../../helpers/offline-extract";
import { tempVault } from "../../helpers/temp-vault";
import { FAKE } from "../ingest/transcript-fixtures";

const settings = defaultSettings();
const layout = new MemoryLayout(settings);
const J = "Memory/Agents/link/Journal/2026-11-24.md";
const now = () => new Date("2026-11-24T10:00:00Z");

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

/** Every file under `root`, by vault path. */
function files(root: string, dir = root): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const abs = join(dir, name);
    if (statSync(abs).isDirectory()) for (const [p, t] of files(root, abs)) out.set(p, t);
    else out.set(relative(root, abs).split("\\").join("/"), readFileSync(abs, "utf8"));
  }
  return out;
}

describe("extraction from a hand-written journal holding a key", () => {
  it("writes each item with the key redacted, and leaves the journal's text as the person wrote it", async () => {
    const journal = [
      "# 2026-11-24",
      "",
      `Learned: the staging API key is ${FAKE.openai} and it expires monthly.`,
      "",
      `- [ ] rotate the server token ${FAKE.agentMemory} on staging`,
      "",
      "- [ ] set password=hunter2 on the staging database",
      "",
      "- [ ] ask ops about the staging quota [api_key:: x8Fj3kLm9QpR2sTzQ]",
      "",
    ].join("\n");
    const t = tempVault({ [J]: journal });
    cleanup = t.cleanup;
    const plan = await planExtraction({
      vault: t.vault,
      settings,
      layout,
      journalPath: J,
      extractor: new OfflineExtractor(),
      now,
    });
    await applyPlan(t.vault, layout, plan, now);

    const after = files(t.root);
    const written = [...after].filter(([p]) => p !== J);
    expect(written.length).toBeGreaterThan(0);
    for (const [path, text] of written) {
      expect(text, path).not.toContain(FAKE.openai);
      expect(text, path).not.toContain(FAKE.agentMemory);
      expect(text, path).not.toContain("hunter2");
      expect(text, path).not.toContain("x8Fj3kLm9QpR2sTzQ");
    }
    const all = written.map(([, text]) => text).join("\n");
    expect(all).toMatch(
      /the staging API key is \[redacted: openai-api-key\] and it expires monthly/,
    );
    expect(all).toMatch(
      /- \[ \] rotate the server token \[redacted: agent-memory-token\] on staging/,
    );
    expect(all).toMatch(
      /- \[ \] set password=\[redacted: secret-assignment\] on the staging database/,
    );
    expect(all).toMatch(
      /ask ops about the staging quota .*\[api_key:: \[redacted: secret-field\]\]/,
    );
    // The journal keeps its words (block ids may be added to its lines).
    const j = after.get(J) ?? "";
    expect(j).toContain(`the staging API key is ${FAKE.openai} and it expires monthly.`);
    expect(j).toContain(`rotate the server token ${FAKE.agentMemory} on staging`);
    expect(j).toContain("set password=hunter2 on the staging database");

    // Extracting again finds the redacted items already written: nothing new.
    const again = await planExtraction({
      vault: t.vault,
      settings,
      layout,
      journalPath: J,
      extractor: new OfflineExtractor(),
      force: true,
      now,
    });
    expect(again.items.map((p) => p.action).filter((a) => a !== "skip")).toEqual([]);
  });
  it("redacts a secret named in Chinese, Japanese or Korean, and leaves prose about passwords as written", async () => {
    const journal = [
      "# 2026-11-24",
      "",
      "- [ ] 把测试库的密码：hunter22 换掉",
      "",
      "- [ ] staging 的令牌是 tk9Xq2Lm，下周轮换",
      "",
      "- [ ] パスワードは pw4Zr8Kq です、共有しない",
      "",
      "- [ ] 写完修改密码的流程",
      "",
      "- [ ] 在文档里写明示例口令：abc 即可",
      "",
    ].join("\n");
    const t = tempVault({ [J]: journal });
    cleanup = t.cleanup;
    await extractOffline(t.vault, J, now);

    const after = files(t.root);
    const written = [...after].filter(([p]) => p !== J);
    expect(written.length).toBeGreaterThan(0);
    for (const [path, text] of written)
      for (const secret of ["hunter22", "tk9Xq2Lm", "pw4Zr8Kq"])
        expect(text, path).not.toContain(secret);
    const all = written.map(([, text]) => text).join("\n");
    const R = "[redacted: secret-assignment]";
    expect(all).toContain(`- [ ] 把测试库的密码：${R} 换掉`);
    expect(all).toContain(`- [ ] staging 的令牌是 ${R}，下周轮换`);
    expect(all).toContain(`- [ ] パスワードは ${R} です、共有しない`);
    // Prose, and a value of three characters, are written as the person wrote them.
    expect(all).toContain("- [ ] 写完修改密码的流程");
    expect(all).toContain("- [ ] 在文档里写明示例口令：abc 即可");
    // The journal keeps its words.
    const j = after.get(J) ?? "";
    for (const secret of ["密码：hunter22", "令牌是 tk9Xq2Lm", "パスワードは pw4Zr8Kq"])
      expect(j).toContain(secret);
  });
});
