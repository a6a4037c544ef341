/** Add two numbers. */
export function add(a: number, b: number): number {
  return a + b;
}

export class Counter {
  private count = 0;

  /** Increment and return the new value. */
  increment(): number {
    this.count = add(this.count, 1);
    return this.count;
  }
}
