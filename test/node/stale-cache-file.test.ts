// The CLI's staleness cache file (src/node/stale-cache-file.ts): loading and saving never throw,
// whatever `.agent-memory` is, so a brief never fails for its cache (docs/decisions.md, "The brief
// keeps what each note gave the staleness scan").
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { staleCacheFile } from "../../src/node/stale-cache-file";
import { tempVault } from "../helpers/temp-vault";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe("staleCacheFile", () => {
  it("saves and loads the text under .agent-memory", async () => {
    const t = tempVault();
    cleanups.push(t.cleanup);
    const store = staleCacheFile(t.vault, "link");
    expect(store).not.toBeNull();
    await store!.save('{"a":1}');
    expect(await store!.load()).toBe('{"a":1}');
    expect(readFileSync(join(t.root, ".agent-memory", "stale-link.json"), "utf8")).toBe('{"a":1}');
    expect(readdirSync(join(t.root, ".agent-memory"))).toEqual(["stale-link.json"]);
  });

  it("neither throws nor writes when .agent-memory is a file, and leaves that file as it was", async () => {
    const t = tempVault();
    cleanups.push(t.cleanup);
    writeFileSync(join(t.root, ".agent-memory"), "not a folder");
    const store = staleCacheFile(t.vault, "link");
    expect(store).not.toBeNull();
    await expect(store!.save('{"a":1}')).resolves.toBeUndefined();
    expect(await store!.load()).toBeNull();
    expect(readFileSync(join(t.root, ".agent-memory"), "utf8")).toBe("not a folder");
  });
});
