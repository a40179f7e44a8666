/**
 * At most `slots` callers inside at once; the others wait in line (first come, first served) at most `waitMs`, then
 * get a DatabaseBusyError. The order transaction runs through one (core/commerce/orders.ts): under a storm of
 * checkouts of one product, the transactions queue here, in memory, instead of each holding a pool connection while
 * it waits for the product's row lock, so the rest of the shop keeps its connections (docs/decisions/0027).
 */
import { DatabaseBusyError } from "./client.ts";

export class Gate {
  private inside = 0;
  private readonly line: { enter: () => void; timer: NodeJS.Timeout }[] = [];

  constructor(
    readonly slots: number,
    readonly waitMs: number,
  ) {
    if (!(slots >= 1)) throw new Error("a gate needs at least one slot");
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.enter();
    try {
      return await fn();
    } finally {
      this.leave();
    }
  }

  /** Callers waiting for a slot (for tests and logs). */
  get waiting(): number {
    return this.line.length;
  }

  private enter(): Promise<void> {
    if (this.inside < this.slots) {
      this.inside++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const entry = {
        enter: () => {
          clearTimeout(entry.timer);
          resolve();
        },
        timer: setTimeout(() => {
          this.line.splice(this.line.indexOf(entry), 1);
          reject(new DatabaseBusyError(`no turn within ${this.waitMs} ms (${this.slots} inside, ${this.line.length} waiting)`));
        }, this.waitMs),
      };
      this.line.push(entry);
    });
  }

  private leave(): void {
    const next = this.line.shift();
    if (next)
      next.enter(); // the slot passes straight to the next in line
    else this.inside--;
  }
}
