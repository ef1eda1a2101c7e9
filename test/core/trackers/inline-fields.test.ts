// Inline fields in journal lines read by the one field scanner of tracker lines (docs/decisions.md,
// "One inline-field scanner").
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { scanInlineFields, withoutInlineFields } from "../../../src/core/trackers/format";
import { cleanItemText, inlineFields } from "../../../src/core/extraction/offline";
import { applyPlan, planExtraction } from "../../../src/core/extraction/pipeline";
import { OfflineExtractor } from "../../../src/core/extraction/offline";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import { listItems } from "../../../src/core/trackers/format";
import { tempVault } from "../../helpers/temp-vault";

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

describe("inline fields outside tracker lines", () => {
  it("a wikilink in a field's value stays whole: [to:: [[editor]]]", () => {
    const line = "Proposal: add a style check [to:: [[editor]]] [topic:: Style] for [[Docs]]";
    expect(scanInlineFields(line).map((f) => [f.key, f.value])).toEqual([
      ["to", "[[editor]]"],
      ["topic", "Style"],
    ]);
    expect(withoutInlineFields(line)).toBe("Proposal: add a style check for [[Docs]]");
    expect(inlineFields(line)).toEqual({ to: "[[editor]]", topic: "Style" });
    expect(cleanItemText("add a style check [to:: [[editor]]] ^am-1234")).toBe("add a style check");
  });

  it("a half-typed [[ starts no link: the fields after it are read, a closed link still skipped", () => {
    const line =
      "- [ ] ask about [[Project Alpha [source:: [[J#^am-1]]] [created:: 2026-11-24] ^t-001";
    const item = listItems(`${line}\n`)[0];
    expect(item?.text).toBe("ask about [[Project Alpha");
    expect(item?.fields).toEqual([
      { key: "source", value: "[[J#^am-1]]" },
      { key: "created", value: "2026-11-24" },
    ]);
    expect(scanInlineFields("see [[Note [x:: 1]]]").map((f) => f.key)).toEqual(["x"]);
    expect(scanInlineFields("see [[Note (x:: 1)]] and (y:: 2)").map((f) => f.key)).toEqual(["y"]);
  });

  it("proposals and questions addressed with a wikilink leave no ]] in the item's text", async () => {
    const settings = defaultSettings();
    const layout = new MemoryLayout(settings);
    const J = "Memory/Agents/link/Journal/2026-12-01.md";
    const t = tempVault({
      [J]: "# Day\n\nProposal: add a style guide check [to:: [[editor]]]\n\nQuestion: who owns the glossary? [to:: [[editor]]]\n",
      "Memory/Agents/editor/Journal/2026-11-30.md": "# Day\n",
    });
    cleanup = t.cleanup;
    const now = () => new Date("2026-12-01T10:00:00Z");
    const plan = await planExtraction({
      vault: t.vault,
      settings,
      layout,
      journalPath: J,
      extractor: new OfflineExtractor(),
      now,
    });
    expect(plan.items.map((p) => [p.item.text, p.item.target])).toEqual([
      ["add a style guide check", "editor"],
      ["who owns the glossary?", "editor"],
    ]);
    await applyPlan(t.vault, layout, plan, now);
    for (const tracker of ["Proposals", "Questions"]) {
      const text = readFileSync(join(t.root, `Memory/Agents/link/Trackers/${tracker}.md`), "utf8");
      const item = listItems(text)[0];
      expect(item?.text).not.toContain("]]");
      expect(text).toContain("[to:: [[editor]]]");
    }
  });
});
