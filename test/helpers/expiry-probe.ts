// Runs `agent-memory health --json` and `agent-memory search --json` (with and without
// --include-expired) in-process on the vault at argv[3], in this process's time zone (TZ), with the
// clock fixed at the ISO instant argv[2]; prints which notes each calls expired, as one JSON line.
// test/core/health/expiry-time-zone.process.test.ts spawns it under chosen zones, since a process has one zone.
import { main } from "../../src/cli/main";

const [nowIso = "", root = "", query = ""] = process.argv.slice(2);
const fixed = Date.parse(nowIso);
const RealDate = Date;
/** `new Date()` and `Date.now()` at the fixed instant; every other use of Date as it is. */
class FixedDate extends RealDate {
  constructor(...args: ConstructorParameters<DateConstructor> | []) {
    if (args.length === 0) super(fixed);
    else super(...(args as [string]));
  }
  static override now(): number {
    return fixed;
  }
}
globalThis.Date = FixedDate as DateConstructor;

async function run(...argv: string[]): Promise<string> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {
    out: (l) => void out.push(l),
    err: (l) => void err.push(l),
    env: {},
  });
  if (code > 1) throw new Error(`agent-memory ${argv.join(" ")} exited ${code}: ${err.join("\n")}`);
  return out.join("\n");
}

const paths = (json: string): string[] =>
  (JSON.parse(json) as { results: { path: string }[] }).results.map((r) => r.path).sort();
const health = JSON.parse(await run("health", root, "--json")) as {
  warnings: { path: string; rule: string }[];
};
const result = {
  healthExpired: health.warnings
    .filter((w) => w.rule === "expired")
    .map((w) => w.path)
    .sort(),
  searchFound: paths(await run("search", root, query, "--json", "--limit", "50")),
  searchFoundWithExpired: paths(
    await run("search", root, query, "--json", "--limit", "50", "--include-expired"),
  ),
};
process.stdout.write(`${JSON.stringify(result)}\n`);
