// A server's background work waits for the requests it answers (docs/decisions.md, "Background
// work waits for requests"). Every wait here is on the event loop or a hand-moved clock, never on
// how fast the machine is.
import { describe, expect, it } from "vitest";
import { Foreground, nextTurn } from "../../src/node/event-loop";

/** A promise with its resolve function outside. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Lets `n` turns of the event loop run. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await nextTurn();
}

describe("Foreground", () => {
  it("is quiet at once when no request ever ran", async () => {
    const fg = new Foreground(25, () => 0);
    let quiet = false;
    void fg.quiet().then(() => (quiet = true));
    await turns(3);
    expect(quiet).toBe(true);
  });

  it("keeps background work waiting while a request is in flight, and lets it go after", async () => {
    const fg = new Foreground(0, () => 0);
    const request = gate();
    const answered = fg.run(() => request.promise.then(() => "reply"));
    expect(fg.busy).toBe(1);
    let quiet = false;
    void fg.quiet().then(() => (quiet = true));
    await turns(20);
    expect(quiet).toBe(false);
    request.open();
    expect(await answered).toBe("reply");
    expect(fg.busy).toBe(0);
    await turns(3);
    expect(quiet).toBe(true);
  });

  it("waits the quiet time after the last request: not a moment before, and goes on at it", async () => {
    let now = 1000;
    const fg = new Foreground(25, () => now);
    await fg.run(() => Promise.resolve());
    let quiet = false;
    void fg.quiet().then(() => (quiet = true));
    now = 1024; // 24 ms after the request ended: one short of the quiet time
    await new Promise((resolve) => setTimeout(resolve, 40));
    await turns(3);
    expect(quiet).toBe(false);
    now = 1025;
    await new Promise((resolve) => setTimeout(resolve, 40));
    await turns(3);
    expect(quiet).toBe(true);
  });

  it("a request that fails still ends, and its error reaches the caller", async () => {
    const fg = new Foreground(0, () => 0);
    await expect(fg.run(() => Promise.reject(new Error("bad note")))).rejects.toThrow("bad note");
    expect(fg.busy).toBe(0);
    let quiet = false;
    void fg.quiet().then(() => (quiet = true));
    await turns(3);
    expect(quiet).toBe(true);
  });

  it("a background loop sliced by it stops at its slice while a request runs, then finishes", async () => {
    let now = 0;
    const fg = new Foreground(0, () => now);
    const slice = fg.backgroundSlicer(4);
    let steps = 0;
    const background = (async () => {
      for (let i = 0; i < 10; i++) {
        now += 1; // each step takes 1 ms of the clock: a yield every 4 steps
        steps++;
        await slice();
      }
    })();
    const request = gate();
    const answered = fg.run(() => request.promise);
    await turns(20);
    // The loop ran up to the end of its first slice and waits there for the request.
    expect(steps).toBe(4);
    request.open();
    await answered;
    await background;
    expect(steps).toBe(10);
  });
});
