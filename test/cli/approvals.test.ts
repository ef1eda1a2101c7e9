// Whole expected texts (docs/testing.md, "Approval files"): the brief, a weekly digest, a review
// note, the health report and `--help`, each made by the CLI's own `main` in process from a fixed
// vault on a fixed date, compared with the copies in test/cli/approved/. A change of format
// anywhere fails here; `npm run approve` writes the new texts for review.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main";
import { expectApproved } from "../helpers/approval";

const SAMPLE = fileURLToPath(new URL("../../examples/vault", import.meta.url));
const HEALTH_VAULT = fileURLToPath(new URL("../fixtures/health-vault", import.meta.url));
const HEALTH_SETTINGS = fileURLToPath(
  new URL("../fixtures/health-vault.settings.json", import.meta.url),
);
/** The fixed day every text is made on. */
const DATE = "2026-11-30";

const approved = (name: string): URL => new URL(`./approved/${name}`, import.meta.url);

/** The folder holding the vaults; each is passed by a relative name, so no text holds a random path. */
const parent = mkdtempSync(join(tmpdir(), "am-approved-"));

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {
    out: (l) => void out.push(l),
    err: (l) => void err.push(l),
    env: {},
    cwd: parent,
  });
  return { code, out: out.join("\n") + "\n", err: err.join("\n") };
}

/** Copies `folder` to `<parent>/<name>` and returns `name`, the vault argument. */
function copyOf(folder: string, name: string): string {
  cpSync(folder, join(parent, name), { recursive: true });
  return name;
}

describe("approved texts", () => {
  // The sample vault with link's journals extracted by the offline extractor, as the demo does.
  let sample = "";
  let health = "";
  beforeAll(async () => {
    // New item ids are random (docs/decisions.md, "Random item ids across clones"): a seeded
    // source in place of crypto.getRandomValues makes them the same on every run.
    let seed = 0x2545f491;
    vi.spyOn(globalThis.crypto, "getRandomValues").mockImplementation(
      <T extends ArrayBufferView | null>(bytes: T): T => {
        const view = new Uint8Array(bytes!.buffer, bytes!.byteOffset, bytes!.byteLength);
        for (let i = 0; i < view.length; i++) {
          seed ^= seed << 13;
          seed ^= seed >>> 17;
          seed ^= seed << 5;
          view[i] = seed & 0xff;
        }
        return bytes;
      },
    );
    sample = copyOf(SAMPLE, "vault");
    const journals = "Memory/Agents/link/Journal";
    for (const name of readdirSync(join(parent, sample, journals)).sort()) {
      const r = await run("extract", sample, `${journals}/${name}`, "--agent", "link");
      expect(r.err, name).toBe("");
    }
    health = copyOf(HEALTH_VAULT, "health-vault");
    mkdirSync(join(parent, health, ".obsidian/plugins/agent-memory"), { recursive: true });
    cpSync(HEALTH_SETTINGS, join(parent, health, ".obsidian/plugins/agent-memory/data.json"));
  });
  afterAll(() => {
    vi.restoreAllMocks();
    rmSync(parent, { recursive: true, force: true });
  });

  it("--help lists every command's usage", async () => {
    const r = await run("--help");
    expect(r.code).toBe(0);
    expectApproved(r.out, approved("help.txt"));
  });

  it("--version prints the package's version", async () => {
    const { version } = JSON.parse(
      readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
    ) as {
      version: string;
    };
    for (const flag of ["--version", "-V", "version"]) {
      const r = await run(flag);
      expect([r.code, r.out, r.err]).toEqual([0, `agent-memory ${version}\n`, ""]);
    }
  });

  it("the brief of link on a fixed day", async () => {
    const r = await run("brief", sample, "--agent", "link", "--date", DATE);
    expect(r.code).toBe(0);
    expectApproved(r.out, approved("brief-link.md"));
  });

  it("a review note of link's weekly retro", async () => {
    const r = await run("review", sample, "start", "link", "r-001", "--date", DATE);
    expect([r.code, r.err]).toEqual([0, ""]);
    const note = readFileSync(
      join(parent, sample, `Memory/Agents/link/Journal/${DATE} review r-001.md`),
      "utf8",
    );
    expectApproved(note, approved("review-note-link-r-001.md"));
  });

  it("a weekly digest of link's journals", async () => {
    // A digest's created_at is the time it is written: only Date is faked, no timer.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(`${DATE}T09:00:00Z`));
    const r = await run("compact", sample, "--agent", "link", "--before", DATE).finally(() =>
      vi.useRealTimers(),
    );
    expect(r.code, r.err).toBe(0);
    const note = readFileSync(
      join(parent, sample, "Memory/Agents/link/Journal/Digests/2026-W47.md"),
      "utf8",
    );
    // created_at is local time with its offset: the same instant reads differently per zone.
    const zoneFree = note.replace(/^created_at: .*$/m, "created_at: 2026-11-30T09:00:00+00:00");
    expectApproved(zoneFree, approved("digest-link-2026-W47.md"));
  });

  it("the health report of the health fixture vault", async () => {
    const r = await run("health", health, "--date", "2026-06-01");
    expect(r.code).toBe(1);
    expectApproved(r.out, approved("health.txt"));
  });
});

describe("expectApproved", () => {
  const dir = mkdtempSync(join(tmpdir(), "am-approval-helper-"));
  const file = pathToFileURL(join(dir, "approved", "x.txt"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("fails on a text not approved yet, naming npm run approve, and on a changed text", () => {
    expect(() => expectApproved("a\n", file, {})).toThrow(
      /is not approved yet: run npm run approve/,
    );
    expectApproved("a\n", file, { UPDATE_APPROVALS: "1" });
    expect(readFileSync(file, "utf8")).toBe("a\n");
    expect(() => expectApproved("a\n", file, {})).not.toThrow();
    expect(() => expectApproved("a \n", file, {})).toThrow(/npm run approve re-approves it/);
  });
});
