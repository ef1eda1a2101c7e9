// What a prompt brings back (docs/agents.md, "What comes back"): the relevance threshold on both
// sides, the budget, the character cap.
import { describe, expect, it } from "vitest";
import {
  fitChars,
  passageState,
  promptContext,
  promptQuery,
  promptTerms,
} from "../../../src/core/ingest/recall";
import type { Passage } from "../../../src/core/search/search-types";

function passage(text: string, n = 1): Passage {
  return {
    path: `Memory/Agents/claude/Knowledge/note-${n}.md`,
    title: `note ${n}`,
    blockId: `b${n}`,
    line: 1,
    heading: null,
    text,
    score: 1,
    agent: "claude",
    collection: "knowledge",
    link: `[[Memory/Agents/claude/Knowledge/note-${n}#^b${n}]]`,
  };
}

const PROMPT = "Please deploy the pricing page on Friday";

describe("promptQuery", () => {
  it("keeps the prompt's words only, without the query language's syntax, and leaves journals out", () => {
    expect(promptQuery('fix "type:tracker" -draft (now) path:x')).toBe(
      "fix type tracker draft path x -type:journal",
    );
  });

  it("gives no query for a prompt of filler and stop words", () => {
    expect(promptQuery("can you please help me?")).toBeNull();
    expect(promptTerms("can you please help me?")).toEqual([]);
  });
});

describe("promptContext", () => {
  const options = { budgetChars: 1500, minCoverage: 0.5 };

  it("adds a passage holding half the prompt's words, and not one holding fewer", () => {
    expect(promptTerms(PROMPT)).toHaveLength(4); // deploy, pricing, page, friday
    const half = passage("We deploy on Friday afternoons.", 1);
    const quarter = passage("Never deploy without a review.", 2);
    const got = promptContext(PROMPT, [quarter, half], options);
    expect(got?.passages.map((p) => p.blockId)).toEqual(["b1"]);
    expect(got?.text).toContain(
      "We deploy on Friday afternoons. ([[Memory/Agents/claude/Knowledge/note-1#^b1]])",
    );
    expect(promptContext(PROMPT, [quarter], options)).toBeNull();
  });

  it("follows the coverage setting: three words of four pass 0.75, two do not", () => {
    const strict = { ...options, minCoverage: 0.75 };
    expect(promptContext(PROMPT, [passage("We deploy on Friday.")], strict)).toBeNull();
    expect(
      promptContext(PROMPT, [passage("We deploy the pricing page on Fridays.")], strict),
    ).not.toBeNull();
  });

  it("needs two words of a longer prompt even when the share is met, one of a one-word prompt", () => {
    expect(
      promptContext("deploy pricing", [passage("deploy")], { ...options, minCoverage: 0.5 }),
    ).toBeNull();
    expect(promptContext("deploy", [passage("How we deploy.")], options)).not.toBeNull();
  });

  it("adds nothing for an unrelated prompt", () => {
    expect(
      promptContext("What is the weather in Paris?", [passage("We deploy on Friday.")], options),
    ).toBeNull();
  });

  it("stays within the budget, dropping what does not fit, and shows no tracker markup", () => {
    const many = Array.from({ length: 20 }, (_, i) =>
      passage(
        `- [ ] Deploy the pricing page, step ${i} ${"x".repeat(150)} [created:: 2026-11-30]`,
        i,
      ),
    );
    const got = promptContext(PROMPT, many, { ...options, budgetChars: 800 });
    expect(got).not.toBeNull();
    expect(got!.text.length).toBeLessThanOrEqual(800);
    expect(got!.passages.length).toBeGreaterThan(1);
    expect(got!.passages.length).toBeLessThan(20);
    expect(got!.text).not.toContain("[created::");
    expect(got!.text).not.toContain("[ ]");
  });
});

describe("passageState", () => {
  it("says a done or abandoned task, a superseded decision or callout is not in force; an open one is", () => {
    expect(passageState("- [x] Deploy the pricing page [completion:: 2026-12-01]")).toBe("done");
    expect(passageState("- [X] Deploy the pricing page")).toBe("done");
    expect(passageState("- [-] Deploy the pricing page")).toBe("abandoned");
    expect(
      passageState(
        "- [x] We deploy pricing fixes on Mondays [decided:: 2026-11-01] [superseded_by:: [[Decisions#^d-002]]]",
      ),
    ).toBe("superseded");
    expect(passageState("> [!decision] Mondays only [valid_to:: 2026-12-01]")).toBe("superseded");
    expect(passageState("- [ ] Deploy the pricing page [due:: 2026-12-09]")).toBeNull();
    expect(passageState("- [/] Deploy the pricing page")).toBeNull();
    expect(passageState("- [x] and more")).toBe("done");
    expect(passageState("Deploys run on Fridays.")).toBeNull();
  });

  it("marks entries no longer in force in the context, and leaves the current one plain", () => {
    const got = promptContext(
      PROMPT,
      [
        passage("- [x] Deploy the pricing page on Friday [completion:: 2026-12-01]", 1),
        passage("- [x] Deploy the pricing page only on Mondays [superseded_by:: [[D#^d-2]]]", 2),
        passage("- [ ] Deploy the pricing page again on Friday", 3),
      ],
      { budgetChars: 1500, minCoverage: 0.5 },
    );
    const lines = got!.text.split("\n").slice(1);
    expect(lines[0]).toMatch(/^- \(done\) Deploy the pricing page on Friday \(/);
    expect(lines[1]).toMatch(/^- \(superseded\) Deploy the pricing page only on Mondays \(/);
    expect(lines[2]).toMatch(/^- Deploy the pricing page again on Friday \(/);
  });
});

describe("fitChars", () => {
  it("keeps text that fits and cuts longer text at a line end, within the cap", () => {
    expect(fitChars("short", 10)).toBe("short");
    const long = Array.from({ length: 500 }, (_, i) => `line ${i}`).join("\n");
    const cut = fitChars(long, 1000);
    expect(cut.length).toBeLessThanOrEqual(1000);
    expect(cut).toMatch(/\(cut to fit; run agent-memory brief for the rest\)$/);
    expect(
      cut
        .split("\n")
        .slice(0, -1)
        .every((l) => /^line \d+$/.test(l)),
    ).toBe(true);
  });
});
