/**
 * A throttle for view updates: a chatty run fires the run model's change event for every
 * token of a thought; the views repaint at most once per interval (the first change at once,
 * the rest folded into one trailing call).
 * Must not know: VS Code (timers are injected so the unit tests drive the clock).
 */

export interface Timers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class Throttle {
  private last = Number.NEGATIVE_INFINITY;
  private timer: unknown;
  private disposed = false;

  /** `fn` runs at most once per `intervalMs` (≤ 10/s at the default 100 ms). */
  constructor(
    private readonly fn: () => void,
    private readonly intervalMs = 100,
    private readonly timers: Timers = realTimers,
  ) {}

  /** Ask for a call: now if the last one is old enough, else once at the end of the interval. */
  schedule(): void {
    if (this.disposed || this.timer !== undefined) return;
    const wait = this.last + this.intervalMs - this.timers.now();
    if (wait <= 0) {
      this.run();
    } else {
      this.timer = this.timers.setTimeout(() => {
        this.timer = undefined;
        this.run();
      }, wait);
    }
  }

  /** Run a pending call now (e.g. when the run finished: the last state must not wait). */
  flush(): void {
    if (this.timer === undefined) return;
    this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.run();
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private run(): void {
    if (this.disposed) return;
    this.last = this.timers.now();
    this.fn();
  }
}

/** One throttle per key (e.g. per transcript document), created on first use. */
export class KeyedThrottle {
  private readonly throttles = new Map<string, Throttle>();

  constructor(
    private readonly fn: (key: string) => void,
    private readonly intervalMs = 100,
    private readonly timers?: Timers,
  ) {}

  schedule(key: string): void {
    let t = this.throttles.get(key);
    if (!t) {
      t = new Throttle(() => this.fn(key), this.intervalMs, this.timers);
      this.throttles.set(key, t);
    }
    t.schedule();
  }

  dispose(): void {
    for (const t of this.throttles.values()) t.dispose();
    this.throttles.clear();
  }
}

/** Calls `fn` every `ms` until disposed (e.g. to move a running run's duration). */
export function every(ms: number, fn: () => void): { dispose(): void } {
  const timer = setInterval(fn, ms);
  return { dispose: () => clearInterval(timer) };
}
