// One note that cannot be read (not UTF-8, a link out of the vault) is left out of the session
// brief and named, as `search` and `index` do (docs/architecture.md, "The saved index").
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildBrief } from "../../../src/core/brief";
import { MemoryLayout } from "../../../src/core/layout";
import { SearchService } from "../../../src/core/search/search-service";
import { defaultSettings } from "../../../src/core/settings";
import { tempVault } from "../../helpers/temp-vault";

const settings = defaultSettings();
const layout = new MemoryLayout(settings);
const TODAY = "2026-12-01";
let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function vaultWithBadNotes() {
  const tasks = layout.trackerPath("learning", "tasks");
  const knowledge = layout.knowledgeFolder("learning");
  const t = tempVault({
    [tasks]: "# Tasks\n\n- [ ] Renew the certificate [due:: 2026-12-03] ^t-renew\n",
    [`${knowledge}/renewal.md`]:
      "# Renewal\n\n> [!knowledge] 2026-11-20 · confidence high\n> Certificates renew 30 days early. ^k-renew\n",
    [`${layout.journalFolder("learning")}/2026-11-30.md`]:
      "# 2026-11-30\n\n- Looked at [[latin]] and [[passwd]] again. ^j-one\n",
  });
  cleanup = t.cleanup;
  const latin = `${knowledge}/latin.md`;
  const latinAbs = join(t.root, latin);
  mkdirSync(dirname(latinAbs), { recursive: true });
  // "café" in Latin-1: 0xE9 alone is not UTF-8.
  writeFileSync(latinAbs, Buffer.from([0x23, 0x20, 0x63, 0x61, 0x66, 0xe9, 0x0a]));
  const passwd = `${layout.libraryRoot}/passwd.md`;
  const passwdAbs = join(t.root, passwd);
  mkdirSync(dirname(passwdAbs), { recursive: true });
  symlinkSync("/etc/passwd", passwdAbs);
  return { ...t, latin, passwd };
}

describe("brief with a note that cannot be read", () => {
  it("leaves the note out, names it, and lists the other items", async () => {
    const v = vaultWithBadNotes();
    const search = new SearchService({ vault: v.vault, layout });
    await search.open();
    const b = await buildBrief({
      vault: v.vault,
      layout,
      settings,
      agent: "learning",
      today: TODAY,
      search,
      budgetTokens: 100_000,
    });
    expect(b.markdown).toContain("Renew the certificate");
    expect(b.markdown).toContain("Certificates renew 30 days early");
    expect(b.markdown).not.toContain("latin");
    expect(b.unreadable.map((u) => u.path).sort()).toEqual([v.latin, v.passwd].sort());
    for (const u of b.unreadable) expect(u.error).not.toBe("");
  });

  it("no longer names a note once it is converted to UTF-8", async () => {
    const v = vaultWithBadNotes();
    v.write(v.latin, "# café\n");
    const search = new SearchService({ vault: v.vault, layout });
    await search.open();
    const b = await buildBrief({
      vault: v.vault,
      layout,
      settings,
      agent: "learning",
      today: TODAY,
      search,
    });
    expect(b.unreadable.filter((u) => u.path === v.latin)).toEqual([]);
  });
});
