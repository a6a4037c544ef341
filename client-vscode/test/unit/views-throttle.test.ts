import * as assert from "node:assert/strict";
import { KeyedThrottle, Throttle, type Timers } from "../../src/views/throttle";

/** A clock the test moves by hand. */
class FakeTimers implements Timers {
  t = 1000;
  private queue: { at: number; fn: () => void; id: number }[] = [];
  private nextId = 1;
  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.queue.push({ at: this.t + ms, fn, id });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.queue = this.queue.filter((q) => q.id !== handle);
  }
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      this.queue.sort((a, b) => a.at - b.at);
      const next = this.queue[0];
      if (!next || next.at > end) break;
      this.queue.shift();
      this.t = next.at;
      next.fn();
    }
    this.t = end;
  }
  get pending(): number {
    return this.queue.length;
  }
}

describe("views: throttle", () => {
  it("calls at once, then folds a burst into one trailing call per interval", () => {
    const timers = new FakeTimers();
    const calls: number[] = [];
    const t = new Throttle(() => calls.push(timers.now()), 100, timers);
    t.schedule();
    assert.deepEqual(calls, [1000], "the first change shows at once");
    for (let i = 0; i < 50; i++) {
      timers.advance(1);
      t.schedule();
    }
    assert.deepEqual(calls, [1000], "50 changes in 50 ms: held back");
    timers.advance(50);
    assert.deepEqual(calls, [1000, 1100], "one trailing call at the end of the interval");
    timers.advance(200);
    assert.deepEqual(calls, [1000, 1100]);
  });

  it("a chatty stream is held to ≤ 10 calls a second", () => {
    const timers = new FakeTimers();
    let calls = 0;
    const t = new Throttle(() => calls++, 100, timers);
    for (let i = 0; i < 1000; i++) {
      t.schedule();
      timers.advance(1); // 1000 changes in one second
    }
    timers.advance(100);
    assert.ok(calls <= 11, `${calls} calls`);
    assert.ok(calls >= 10, `${calls} calls: the view still moves`);
  });

  it("flush runs the pending call now; dispose drops it", () => {
    const timers = new FakeTimers();
    let calls = 0;
    const t = new Throttle(() => calls++, 100, timers);
    t.schedule();
    t.schedule();
    assert.equal(calls, 1);
    t.flush();
    assert.equal(calls, 2);
    assert.equal(timers.pending, 0);
    t.schedule();
    t.dispose();
    timers.advance(500);
    assert.equal(calls, 2);
    t.schedule();
    assert.equal(calls, 2, "nothing after dispose");
  });

  it("keyed: one throttle per key", () => {
    const timers = new FakeTimers();
    const calls: string[] = [];
    const k = new KeyedThrottle((key) => calls.push(key), 100, timers);
    k.schedule("a");
    k.schedule("b");
    k.schedule("a");
    assert.deepEqual(calls, ["a", "b"]);
    timers.advance(100);
    assert.deepEqual(calls, ["a", "b", "a"]);
    k.dispose();
  });
});
