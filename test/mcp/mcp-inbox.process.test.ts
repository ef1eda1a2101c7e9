// Issue 17 items 2 and 3 through the SDK's own client over stdio on dist/cli.js (docs/inbox.md):
// the inbox lists what is addressed to the server's agent; answer_inbox_item writes under the
// sender's item; propose_promotion only proposes (nothing reaches the library); no tool lets an
// agent accept a proposal or approve its own, and a zone's content is never proposed.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli, startMcp, textOf, type McpSession } from "../helpers/mcp-client";
import { tempVault } from "../helpers/temp-vault";

const KNOW = "Memory/Agents/link/Knowledge/learning/SEO audit.md";
const LINK_PROPOSALS = "Memory/Agents/link/Trackers/Proposals.md";
const MING_QUESTIONS = "Memory/Agents/ming/Trackers/Questions.md";
const LIBRARY = "Memory/Library/SEO/SEO audit.md";

beforeAll(() => buildCli(), 60_000);

describe("inbox tools of a server started with --agent link", () => {
  let v: ReturnType<typeof tempVault>;
  let s: McpSession;
  let zoned: McpSession;
  const read = (p: string) => readFileSync(join(v.root, p), "utf8");

  beforeAll(async () => {
    v = tempVault({
      [KNOW]:
        "---\nid: k\ntype: knowledge\nstatus: active\ncreated_at: 2026-11-02\n---\n# SEO audit\n\n> [!insight] 2026-11-10 · confidence 0.8\n> Canonical tags fix duplicates.\n^ins-1\n",
      [LINK_PROPOSALS]:
        "# Proposals\n\n- [ ] Publish on Tuesdays [state:: proposed] [to:: [[ming]]] [created:: 2026-11-18] ^p-001\n",
      [MING_QUESTIONS]:
        "# Questions\n\n- [ ] Which pages bring trial users? [to:: [[link]]] [created:: 2026-11-05] ^q-001\n- [ ] Can the discount go to 15%? [to:: [[me]]] [created:: 2026-11-12] ^q-002\n",
      "Memory/Agents/ming/Trackers/Proposals.md":
        "# Proposals\n\n- [ ] Move the retro to Monday [state:: proposed] [to:: [[link]]] [created:: 2026-11-19] ^p-001\n",
      "Memory/Restricted/INC-1.md":
        "# Incident\n\n> [!insight] 2026-11-07 · confidence 0.9\n> PLOVER.\n^z-1\n",
    });
    s = await startMcp(v.root, ["--agent", "link"]);
    zoned = await startMcp(v.root, ["--agent", "link", "--zone", "Restricted"]);
  }, 30_000);
  afterAll(async () => {
    await s?.close();
    await zoned?.close();
    v?.cleanup();
  });

  it("inbox lists the items other agents addressed to link, not its own nor the person's", async () => {
    const r = await s.call("inbox");
    expect(r.isError).toBeFalsy();
    const items = (r.structuredContent as { items: { from: string; id: string }[] }).items;
    expect(items.map((i) => `${i.from}/${i.id}`)).toEqual(["ming/q-001", "ming/p-001"]);
  });

  it("answer_inbox_item writes the answer under ming's question and marks it answered", async () => {
    const r = await s.call("answer_inbox_item", {
      id: "q-001",
      verb: "answer",
      text: "The pricing guide.",
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(r.structuredContent).toMatchObject({
      state: "answered",
      status: "done",
      path: MING_QUESTIONS,
    });
    expect(read(MING_QUESTIONS)).toMatch(
      /\[state:: answered\].*\^q-001\n {4}- Answer \(link, \d{4}-\d{2}-\d{2}\): The pricing guide\.\n- \[ \] Can the discount/,
    );
    const again = await s.call("inbox");
    expect((again.structuredContent as { items: { id: string }[] }).items.map((i) => i.id)).toEqual(
      ["p-001"],
    );
  });

  it("refuses accepting a proposal addressed to it, answering what is not addressed to it, and approving its own", async () => {
    const before = [
      read(LINK_PROPOSALS),
      read(MING_QUESTIONS),
      read("Memory/Agents/ming/Trackers/Proposals.md"),
    ];
    const accept = await s.call("answer_inbox_item", { id: "p-001", from: "ming", verb: "accept" });
    expect(accept.isError).toBe(true);
    expect(textOf(accept)).toContain("only a person can accept a proposal");
    const notMine = await s.call("answer_inbox_item", {
      id: "q-002",
      from: "ming",
      verb: "answer",
      text: "yes",
    });
    expect(notMine.isError).toBe(true);
    expect(textOf(notMine)).toContain("not addressed to link");
    const own = await s.call("answer_inbox_item", { id: "p-001", from: "link", verb: "accept" });
    expect(own.isError).toBe(true);
    expect(textOf(own)).toContain("cannot approve its own proposal");
    const viaUpdate = await s.call("update_tracker_item", {
      kind: "proposals",
      id: "p-001",
      fields: { state: "accepted" },
    });
    expect(viaUpdate.isError).toBe(true);
    const viaTick = await s.call("update_tracker_item", {
      kind: "proposals",
      id: "p-001",
      status: "done",
    });
    expect(viaTick.isError).toBe(true);
    const viaAdd = await s.call("add_tracker_item", {
      kind: "proposals",
      text: "Self-approved",
      fields: { state: "accepted" },
    });
    expect(viaAdd.isError).toBe(true);
    expect([
      read(LINK_PROPOSALS),
      read(MING_QUESTIONS),
      read("Memory/Agents/ming/Trackers/Proposals.md"),
    ]).toEqual(before);
    const tools = (await s.client.listTools()).tools.map((t) => t.name);
    expect(tools.filter((n) => /approve|promote$|accept/.test(n))).toEqual([]);
  });

  it("propose_promotion writes a proposal to the person and nothing in the library; twice adds it once", async () => {
    const r = await s.call("propose_promotion", { note: `${KNOW}#^ins-1`, area: "SEO" });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(r.structuredContent).toMatchObject({
      added: true,
      destination: LIBRARY,
      path: LINK_PROPOSALS,
    });
    expect(existsSync(join(v.root, LIBRARY))).toBe(false);
    const text = read(LINK_PROPOSALS);
    expect(text).toMatch(
      /- \[ \] Promote \[\[Memory\/Agents\/link\/Knowledge\/learning\/SEO audit#\^ins-1\]\] to the library \(area SEO\) \[state:: proposed\] \[to:: \[\[me\]\]\] \[promote:: \[\[Memory\/Agents\/link\/Knowledge\/learning\/SEO audit#\^ins-1\]\]\] \[area:: SEO\] \[created:: \d{4}-\d{2}-\d{2}\] \^p-[a-z][0-9a-z]{9}\n/,
    );
    const id = (r.structuredContent as { id: string }).id;
    expect(text).toContain(`^${id}\n`);
    const again = await s.call("propose_promotion", { note: `${KNOW}#^ins-1`, area: "SEO" });
    expect(again.structuredContent).toMatchObject({ added: false, id });
    expect(read(LINK_PROPOSALS)).toBe(text);
    const own = await s.call("answer_inbox_item", { id, from: "link", verb: "accept" });
    expect(own.isError).toBe(true);
    expect(existsSync(join(v.root, LIBRARY))).toBe(false);
  });

  it("propose_promotion refuses a zone's content, even on a server started with --zone, and a bad area", async () => {
    const before = read(LINK_PROPOSALS);
    for (const session of [s, zoned]) {
      const r = await session.call("propose_promotion", {
        note: "Memory/Restricted/INC-1.md#^z-1",
        area: "SEO",
      });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain("isolated zone Restricted");
    }
    const bad = await s.call("propose_promotion", { note: KNOW, area: "../Agents" });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain("invalid library area");
    expect(read(LINK_PROPOSALS)).toBe(before);
  });
});
