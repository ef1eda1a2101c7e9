// loadWithCodeCache (src/cli/code-cache.ts; docs/decisions.md, "The hooks' bundle runs from a code
// cache"): a bundle runs from the cache made from that very file, and never from one made from
// another build of it, even one of the same length (V8 itself compares only the length), nor from
// a cache cut short, damaged (Node 20's V8 would run it and crash) or of another layout. Each load
// is a process of its own, as a hook is: V8 keeps what a process compiled and would not look at
// the cache again.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import { afterEach, describe, expect, it } from "vitest";

const SOURCE = fileURLToPath(new URL("../../src/cli/code-cache.ts", import.meta.url));

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** A folder with the loader built as CommonJS and a runner that loads `b.cjs` with it. */
function setup(): { dir: string; file: string; load(save?: boolean): Loaded } {
  const dir = mkdtempSync(join(tmpdir(), "am-code-cache-"));
  dirs.push(dir);
  buildSync({
    entryPoints: [SOURCE],
    bundle: true,
    platform: "node",
    format: "cjs",
    outfile: join(dir, "loader.cjs"),
    logLevel: "silent",
  });
  writeFileSync(
    join(dir, "run.cjs"),
    `const { loadWithCodeCache } = require("./loader.cjs");
const b = loadWithCodeCache(process.argv[2]);
const e = b.exports;
if (process.argv[3] === "save") b.save();
process.stdout.write(JSON.stringify({ fromCache: b.fromCache, answer: e.answer(), base: e.base, dir: e.dir }));
`,
  );
  const file = join(dir, "b.cjs");
  return {
    dir,
    file,
    load(save = true) {
      const r = spawnSync(process.execPath, [join(dir, "run.cjs"), file, save ? "save" : ""], {
        encoding: "utf8",
      });
      expect({ status: r.status, signal: r.signal, stderr: r.stderr }).toEqual({
        status: 0,
        signal: null,
        stderr: "",
      });
      return JSON.parse(r.stdout) as Loaded;
    },
  };
}

interface Loaded {
  fromCache: boolean;
  answer: string;
  base: string;
  dir: string;
}

/** A CommonJS "bundle" whose `answer()` returns `value` and a number, with functions to compile. */
function bundle(value: string): string {
  const fns = Array.from(
    { length: 200 },
    (_, i) =>
      `function f${i}(x) { const o = { a: x, b: [x, ${i}] }; return JSON.stringify(o).length + x.split("").reverse().join("").length + ${i}; }`,
  ).join("\n");
  const calls = Array.from({ length: 200 }, (_, i) => `f${i}("ab")`).join(" + ");
  return `"use strict";\n${fns}\nconst path = require("node:path");\nmodule.exports = { answer: () => ${JSON.stringify(value)} + (${calls}), base: path.basename(__filename), dir: __dirname };\n`;
}

/** A new build of `file`: a new file renamed over it, as esbuild.config.mjs writes one. */
function rebuild(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

describe("loadWithCodeCache", () => {
  it("compiles and saves the first time, then runs from the cache, as require would", () => {
    const t = setup();
    writeFileSync(t.file, bundle("one"));
    const first = t.load();
    expect(first).toMatchObject({ fromCache: false, base: "b.cjs", dir: t.dir });
    expect(first.answer).toMatch(/^one\d+$/);
    const cache = readFileSync(`${t.file}.cache`);
    expect(cache.toString("utf8", 0, 26)).toBe("agent-memory-code-cache-2 ");
    expect(t.load()).toEqual({ ...first, fromCache: true });
    // Taken: not written again.
    expect(readFileSync(`${t.file}.cache`)).toEqual(cache);
  });

  it("does not run a cache made from another build of the same length", () => {
    const t = setup();
    writeFileSync(t.file, bundle("one"));
    const one = t.load();
    rebuild(t.file, bundle("two"));
    const two = t.load();
    expect(two.fromCache).toBe(false);
    expect(two.answer).toBe(one.answer.replace("one", "two"));
    expect(t.load()).toEqual({ ...two, fromCache: true });
  });

  it("compiles from the source when the cache is cut short, damaged or of another layout", () => {
    const t = setup();
    writeFileSync(t.file, bundle("one"));
    const first = t.load();
    const cache = readFileSync(`${t.file}.cache`);
    const head = cache.indexOf(0x0a) + 1;
    const tail = Buffer.from(cache);
    for (let i = tail.length - 400; i < tail.length; i += 3) tail[i] = (tail[i] ?? 0) ^ 0x55;
    const middle = Buffer.from(cache);
    for (let i = head + 16; i < middle.length; i += 7) middle[i] = (middle[i] ?? 0) ^ 0xff;
    for (const bad of [
      cache.subarray(0, head + 10),
      cache.subarray(0, head),
      cache.subarray(head),
      Buffer.concat([Buffer.from("agent-memory-code-cache-1"), cache.subarray(25)]),
      tail,
      middle,
    ]) {
      writeFileSync(`${t.file}.cache`, bad);
      expect(t.load(false)).toEqual(first);
    }
  });
});
