// The query language (docs/architecture.md, "Query language") and scopes (docs/architecture.md,
// "Scopes and zones"): parsing only.
import { describe, expect, it } from "vitest";
import { isIsoDate, itemStateFilter, parseQuery } from "../../../src/core/search/query";
import { parseScope } from "../../../src/core/search/scope";
import { matchesFilters } from "../../../src/core/search/filters";
import type { NoteMeta } from "../../../src/core/search/note-document";

function ok(input: string) {
  const r = parseQuery(input);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

describe("query parser", () => {
  it("reads free text, filters and quoted phrases (the architecture example)", () => {
    expect(
      ok('after:2024-04-01 status:active domain:compliance refund "chargeback window" policy'),
    ).toEqual({
      text: "refund policy",
      phrases: ["chargeback window"],
      filters: [
        { name: "after", value: "2024-04-01", negated: false },
        { name: "status", value: "active", negated: false },
        { name: "domain", value: "compliance", negated: false },
      ],
    });
  });

  it("reads every filter, negation, quoted values and curly or CJK quotes", () => {
    const q = ok(
      'agent:link type:journal -status:archived tag:#seo path:"Agents/link/Journal" before:2026-12-01 “bounce rate” 「反洗钱」',
    );
    expect(q.filters.map((f) => `${f.negated ? "-" : ""}${f.name}:${f.value}`)).toEqual([
      "agent:link",
      "type:journal",
      "-status:archived",
      "tag:#seo",
      "path:Agents/link/Journal",
      "before:2026-12-01",
    ]);
    expect(q.phrases).toEqual(["bounce rate", "反洗钱"]);
    expect(q.text).toBe("");
  });

  it("an unknown filter is an error, not an empty result", () => {
    const r = parseQuery("owner:link refund");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/unknown filter "owner:"/);
  });

  it("a bad date is an error naming it", () => {
    for (const q of [
      "after:2024-13-01",
      "before:2024-02-30",
      "after:yesterday",
      "after:2024-4-1",
    ]) {
      const r = parseQuery(q);
      expect(r.ok, q).toBe(false);
      if (!r.ok) expect(r.error).toContain(q);
    }
    expect(isIsoDate("2024-02-29")).toBe(true);
    expect(isIsoDate("2023-02-29")).toBe(false);
  });

  it("a filter without a value is an error; text with colons stays text", () => {
    expect(parseQuery("status: active").ok).toBe(false);
    expect(ok("meeting at 10:30 see https://example.com/a note:").text).toBe(
      "meeting at 10:30 see https://example.com/a note:",
    );
  });

  it("an unclosed quote runs to the end of the query", () => {
    expect(ok('refund "chargeback window').phrases).toEqual(["chargeback window"]);
  });
});

describe("scopes", () => {
  const settings = { isolatedZones: ["Restricted", "HR"] };
  it("reads all, library, agent:NAME and zone names", () => {
    expect(parseScope(undefined, settings)).toEqual({ ok: true, value: { kind: "all" } });
    expect(parseScope("library", settings)).toEqual({ ok: true, value: { kind: "library" } });
    expect(parseScope("agent:link", settings)).toEqual({
      ok: true,
      value: { kind: "agent", agent: "link" },
    });
    expect(parseScope("restricted", settings)).toEqual({
      ok: true,
      value: { kind: "zone", zone: "Restricted" },
    });
  });
  it("a zone may be written as its setting may be: with slashes or backslashes", () => {
    const nested = { isolatedZones: ["Clients/Acme"] };
    for (const s of ["/Clients/Acme/", "Clients\\Acme", "clients/acme"]) {
      expect(parseScope(s, nested), s).toEqual({
        ok: true,
        value: { kind: "zone", zone: "Clients/Acme" },
      });
    }
  });
  it("an unknown scope or unsafe agent name is an error listing the valid scopes", () => {
    const r = parseScope("Secret", settings);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain("Restricted");
    expect(parseScope("agent:../x", settings).ok).toBe(false);
  });
});

describe("filters", () => {
  const meta: NoteMeta = {
    path: "Memory/Agents/link/Journal/2026-03-24.md",
    mtime: 0,
    size: 10,
    title: "2026-03-24",
    agent: "link",
    collection: "journal",
    zone: null,
    type: "journal",
    status: "Active",
    domain: "seo",
    tags: ["project/alpha", "retro"],
    date: "2026-03-24",
  };
  const f = (q: string) => matchesFilters(meta, ok(q).filters);
  it("match case-insensitively, nested tags, path parts and date bounds", () => {
    expect(f("status:active agent:LINK type:journal domain:seo")).toBe(true);
    expect(f("tag:project tag:#retro")).toBe(true);
    expect(f("tag:proj")).toBe(false);
    expect(f("path:agents/link")).toBe(true);
    expect(f("after:2026-03-24 before:2026-03-25")).toBe(true);
    expect(f("after:2026-03-25")).toBe(false);
    expect(f("before:2026-03-24")).toBe(false);
    expect(f("-status:active")).toBe(false);
    expect(f("status:draft status:active")).toBe(true);
    expect(f("status:draft")).toBe(false);
  });

  it("compare as lowered however the note writes the value: other case, other length, İ", () => {
    const g = (value: string, q: string) =>
      matchesFilters({ ...meta, domain: value }, ok(q).filters);
    expect(g("SEO", "domain:seo")).toBe(true);
    expect(g("seo", "domain:SEO")).toBe(true);
    expect(g("seos", "domain:seo")).toBe(false);
    expect(g("se", "domain:seo")).toBe(false);
    expect(g("sea", "domain:seo")).toBe(false);
    // "İ" lowers to two code units: the note's value is shorter than the query's, lowered.
    expect(g("İSTANBUL", "domain:istanbul")).toBe(false);
    expect(g("İSTANBUL", "domain:İstanbul")).toBe(true);
    expect(g("İstanbul", "domain:i̇stanbul")).toBe(true);
  });
});

describe("itemStateFilter", () => {
  it("a status: filter naming an item state (open, done, abandoned) is named, any case; other statuses, negations and all are not", () => {
    expect(itemStateFilter(ok("status:open migration"))).toBe("open");
    expect(itemStateFilter(ok("status:Done"))).toBe("done");
    expect(itemStateFilter(ok("status:active status:abandoned"))).toBe("abandoned");
    expect(itemStateFilter(ok("status:active"))).toBeNull();
    expect(itemStateFilter(ok("-status:open"))).toBeNull();
    expect(itemStateFilter(ok("status:all"))).toBeNull();
    expect(itemStateFilter(ok("open tasks"))).toBeNull();
    expect(itemStateFilter(ok("type:open"))).toBeNull();
  });
});
