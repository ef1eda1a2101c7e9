// The CLI reads and segments notes on a worker thread while it builds the index (worker-reader.ts,
// index-worker.ts; docs/decisions.md, "The CLI builds with a worker thread"). The index must be
// exactly the one built on the main thread, an unreadable note must still be reported by path, and
// a worker that cannot start or dies must lose nothing.
import { once } from "node:events";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryLayout } from "../../src/core/layout";
import { defaultSettings } from "../../src/core/settings";
import type { NoteReader, ReadNote } from "../../src/core/search/search-types";
import { SearchService } from "../../src/core/search/search-service";
import { prepareNote, segmentMemo } from "../../src/core/search/prepared-note";
import type { FileStat } from "../../src/core/vault";
import type { IndexWorkerData } from "../../src/node/index-worker";
import { startIndexWorker, WorkerNoteReader } from "../../src/node/worker-reader";
import { sampleVaultCopy } from "../helpers/temp-vault";

const layout = new MemoryLayout(defaultSettings());
let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

/** The sample vault plus `extra` generated notes in Chinese, Japanese and English, some named in CJK. */
function vaultWithNotes(extra: number): ReturnType<typeof sampleVaultCopy> {
  const v = sampleVaultCopy();
  cleanups.push(v.cleanup);
  mkdirSync(join(v.root, "Memory/Library/生成"), { recursive: true });
  for (let i = 0; i < extra; i++) {
    const name = i % 3 === 0 ? `会议纪要 ${i}` : i % 3 === 1 ? `東京の会議 ${i}` : `meeting ${i}`;
    const body = `---\ntype: knowledge\ntags: [跨境转账, note-${i}]\n---\n# 数据库迁移 ${i}\n\n今天完成了认证系统的重构，JWT令牌第${i}版。東京で会議をしました。\nPainting the follow-up ${i}. ^b${i}\n`;
    writeFileSync(join(v.root, `Memory/Library/生成/${name}.md`), body, "utf8");
  }
  return v;
}

async function readAll(reader: NoteReader, files: FileStat[]): Promise<ReadNote[]> {
  const out: ReadNote[] = [];
  for await (const group of reader.readNotes(files, layout.settings)) out.push(...group);
  return out;
}

/** The saved index a build through `reader` writes (the save time removed). */
async function builtIndex(
  vault: ReturnType<typeof sampleVaultCopy>["vault"],
  reader?: NoteReader,
  on = layout,
): Promise<string> {
  let saved = "";
  const store = {
    load: () => Promise.resolve(null),
    save: (data: Uint8Array) => Promise.resolve(void (saved = Buffer.from(data).toString("hex"))),
  };
  const service = new SearchService({ vault, layout: on, store, now: () => 0, reader });
  const report = await service.open();
  expect(report.source).toBe("built");
  // The save time is 0 (`now`), so two builds of the same notes save the same bytes.
  return saved;
}

describe("WorkerNoteReader", () => {
  it("reads every note once, in the order asked, prepared as the index would prepare it, on a worker it then stops", async () => {
    const v = vaultWithNotes(70);
    const files = await v.vault.list("Memory");
    const exits: Promise<unknown>[] = [];
    const fallbacks: string[] = [];
    const reader = new WorkerNoteReader(v.vault, {
      minNotes: 1,
      onFallback: (r) => fallbacks.push(r),
      startWorker: (data) => {
        const w = startIndexWorker(data);
        exits.push(once(w, "exit"));
        return w;
      },
    });
    const notes = await readAll(reader, files);
    expect(fallbacks).toEqual([]);
    expect(exits).toHaveLength(1);
    await Promise.all(exits); // stopped once done (else this test times out)
    expect(notes.map((n) => n.path)).toEqual(files.map((f) => f.path));
    files.forEach((file, i) => {
      const note = notes[i];
      if (!note?.ok || !("prepared" in note)) throw new Error(`not prepared: ${file.path}`);
      expect(note.prepared).toEqual(
        prepareNote(file.path, readFileSync(join(v.root, file.path), "utf8"), file, layout),
      );
    });
    const generated = notes.find((n) => n.path.endsWith("会议纪要 0.md"));
    if (!generated?.ok || !("prepared" in generated)) throw new Error("no generated note");
    const memo = segmentMemo(generated.prepared.segments);
    expect(memo("今天完成了认证系统的重构")).toContain("认证");
    expect(memo("会议纪要")).toBeDefined(); // from the file name
  });

  it("builds the very index the main thread builds (byte for byte), with one worker or two", async () => {
    const v = vaultWithNotes(60);
    const onMain = await builtIndex(v.vault);
    const fallbacks: string[] = [];
    for (const workers of [1, 2]) {
      const requests: number[] = [];
      const startWorker = (data: IndexWorkerData): Worker => {
        const w = startIndexWorker(data);
        const k = requests.push(0) - 1;
        const post = w.postMessage.bind(w);
        w.postMessage = (message: unknown) => {
          requests[k] = (requests[k] ?? 0) + 1;
          post(message);
        };
        return w;
      };
      const onWorkers = await builtIndex(
        v.vault,
        new WorkerNoteReader(v.vault, {
          minNotes: 1,
          workers,
          startWorker,
          onFallback: (r) => fallbacks.push(r),
        }),
      );
      expect(onWorkers.length).toBeGreaterThan(10_000);
      expect(onWorkers).toBe(onMain);
      expect(requests).toHaveLength(workers);
      for (const n of requests) expect(n).toBeGreaterThan(0);
    }
    // With the index's settings, not the defaults: a small size cap leaves bodies out.
    const small = new MemoryLayout({
      ...defaultSettings(),
      search: { ...defaultSettings().search, sizeCapBytes: 300 },
    });
    const cappedOnMain = await builtIndex(v.vault, undefined, small);
    expect(cappedOnMain).not.toBe(onMain);
    expect(
      await builtIndex(
        v.vault,
        new WorkerNoteReader(v.vault, { minNotes: 1, onFallback: (r) => fallbacks.push(r) }),
        small,
      ),
    ).toBe(cappedOnMain);
    expect(fallbacks).toEqual([]);
  });

  it("reports a note it cannot read by path, and reads the others", async () => {
    const v = vaultWithNotes(5);
    const files = await v.vault.list("Memory");
    // Listed, then deleted before it was read.
    const gone = { path: "Memory/Library/gone.md", mtime: 1, size: 10 };
    const notes = await readAll(new WorkerNoteReader(v.vault, { minNotes: 1 }), [
      ...files.slice(0, 3),
      gone,
      ...files.slice(3),
    ]);
    expect(notes.filter((n) => !n.ok)).toEqual([
      {
        path: gone.path,
        ok: false,
        error: expect.stringMatching(/^cannot read Memory\/Library\/gone\.md: /) as string,
      },
    ]);
    expect(notes.filter((n) => n.ok).map((n) => n.path)).toEqual(files.map((f) => f.path));
  });

  it("reads on the calling thread when the worker cannot start, stops midway, answers wrongly or not at all, says so, and loses nothing", async () => {
    const v = vaultWithNotes(100);
    const files = await v.vault.list("Memory");
    const broken = new Worker("throw new Error('no worker here')", { eval: true });
    // Answers the first request, then exits.
    const midway = () =>
      new Worker(
        `const { parentPort, workerData } = require("node:worker_threads");
         const fs = require("node:fs");
         let n = 0;
         parentPort.on("message", ({ id, files }) => {
           if (n++ > 0) process.exit(3);
           parentPort.postMessage({ id, notes: files.map(({ path }) => ({ path, ok: true, text: fs.readFileSync(workerData.root + "/" + path, "utf8") })) });
         });`,
        { eval: true, workerData: { root: v.root } },
      );
    // Loads, then misbehaves (a damaged or mismatched index-worker.mjs): found by the fresh-user test,
    // these hung the CLI before the reply check and the timeout.
    const answering = (reply: string) => () =>
      new Worker(
        `require("node:worker_threads").parentPort.on("message", (request) => { ${reply} });`,
        { eval: true },
      );
    const cases: [() => Worker, RegExp][] = [
      [() => broken, /no worker here/],
      [midway, /exit code 3/],
      [
        answering("require('node:worker_threads').parentPort.postMessage({ garbage: true });"),
        /answered something else than notes/,
      ],
      [
        answering("require('node:worker_threads').parentPort.postMessage(null);"),
        /answered something else than notes/,
      ],
      [
        answering("require('node:worker_threads').parentPort.postMessage(request);"),
        /answered something else than notes/,
      ],
      [
        answering(
          "require('node:worker_threads').parentPort.postMessage({ id: request.id, notes: [] });",
        ),
        /answered for other notes/,
      ],
      [answering("/* never answers */"), /did not answer in 0.3 s/],
      [answering("for (;;);"), /did not answer in 0.3 s/],
    ];
    for (const [startWorker, reason] of cases) {
      const fallbacks: string[] = [];
      const reader = new WorkerNoteReader(v.vault, {
        minNotes: 1,
        startWorker,
        replyTimeoutMs: 300,
        onFallback: (r) => fallbacks.push(r),
      });
      const notes = await readAll(reader, files);
      expect(fallbacks).toHaveLength(1);
      expect(fallbacks[0]).toMatch(reason);
      expect(notes.map((n) => n.path)).toEqual(files.map((f) => f.path));
      expect(notes.every((n) => n.ok)).toBe(true);
    }
  });

  it("reads a small build on the calling thread (a worker costs more than it saves)", async () => {
    const v = vaultWithNotes(0);
    const files = await v.vault.list("Memory");
    let started = 0;
    const reader = new WorkerNoteReader(v.vault, {
      startWorker: (data) => {
        started++;
        return startIndexWorker(data);
      },
    });
    expect((await readAll(reader, files)).map((n) => n.path)).toEqual(files.map((f) => f.path));
    expect(started).toBe(0);
  });
});
