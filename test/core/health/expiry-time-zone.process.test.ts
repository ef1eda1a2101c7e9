// One expiry rule for the health check and search, on the user's local calendar date
// (docs/decisions.md, "One date rule, on the user's local calendar"). A process has one time zone,
// so each case runs test/helpers/expiry-probe.ts — the CLI's
// `health` and `search` at a fixed clock — in a child process with TZ set, whatever zone the suite
// itself runs in.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { tempVault } from "../../helpers/temp-vault";

const PROBE = fileURLToPath(new URL("../../helpers/expiry-probe.ts", import.meta.url));
const TSX = fileURLToPath(new URL("../../../node_modules/.bin/tsx", import.meta.url));

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

interface ProbeResult {
  healthExpired: string[];
  searchFound: string[];
  searchFoundWithExpired: string[];
}

/** Library notes `Memory/Library/ops/<name>.md`, each with `expires_at` and the word "renewal". */
function probe(tz: string, nowIso: string, expiries: Record<string, string>): ProbeResult {
  const files: Record<string, string> = {};
  for (const [name, expires] of Object.entries(expiries)) {
    files[`Memory/Library/ops/${name}.md`] =
      `---\ntype: library\nstatus: active\ncreated_at: 2026-11-01\nexpires_at: ${expires}\n---\n# ${name}\n\nContract renewal terms.\n`;
  }
  const tv = tempVault(files);
  cleanups.push(tv.cleanup);
  const res = spawnSync(TSX, [PROBE, nowIso, tv.root, "renewal"], {
    encoding: "utf8",
    env: { ...process.env, TZ: tz },
  });
  if (res.status !== 0)
    throw new Error(`expiry probe failed (${String(res.status)}): ${res.stderr}`);
  return JSON.parse(res.stdout) as ProbeResult;
}

const path = (name: string) => `Memory/Library/ops/${name}.md`;

describe("expires_at: health and search give one answer, on the local date", () => {
  it("Asia/Shanghai at 2026-12-01T20:00Z (local 2026-12-02): expires_at on the UTC date is expired for health and left out of search", () => {
    const r = probe("Asia/Shanghai", "2026-12-01T20:00:00Z", {
      "Ends on the UTC date": "2026-12-01", // the day before local today: expired
      "Ends local today": "2026-12-02", // local today: not expired yet
      "Ends tomorrow": "2026-12-03",
      "Ended at ten local": "2026-12-01T10:00:00+08:00", // an instant before now
      "Ended at three without offset": "2026-12-02T03:00:00", // local time, 19:00Z: before now
      "Ends at nine local": "2026-12-02T09:00:00+08:00", // 01:00Z on 12-02: after now
    });
    const expired = ["Ended at ten local", "Ended at three without offset", "Ends on the UTC date"]
      .map(path)
      .sort();
    const live = ["Ends at nine local", "Ends local today", "Ends tomorrow"].map(path).sort();
    expect(r.healthExpired).toEqual(expired);
    expect(r.searchFound).toEqual(live);
    expect(r.searchFoundWithExpired).toEqual([...expired, ...live].sort());
  });

  it("America/Los_Angeles at 2026-12-02T05:00Z (local 2026-12-01): expires_at on the local date is live for both, the day before expired for both", () => {
    const r = probe("America/Los_Angeles", "2026-12-02T05:00:00Z", {
      "Ends local today": "2026-12-01", // the UTC date is already 12-02
      "Ended the day before": "2026-11-30",
    });
    expect(r.healthExpired).toEqual([path("Ended the day before")]);
    expect(r.searchFound).toEqual([path("Ends local today")]);
    expect(r.searchFoundWithExpired).toEqual([
      path("Ended the day before"),
      path("Ends local today"),
    ]);
  });
});
