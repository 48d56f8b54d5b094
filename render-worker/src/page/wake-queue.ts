/**
 * Events for a supervisor loop that may arrive while it is busy elsewhere (a crash during a
 * navigation): they queue, and `next` returns the oldest one, or null when the wait times out.
 */
export class WakeQueue<T> {
  private readonly queued: T[] = [];
  private waiter: ((value: T | null) => void) | undefined;

  push(event: T): void {
    const w = this.waiter;
    if (w) {
      this.waiter = undefined;
      w(event);
    } else {
      this.queued.push(event);
    }
  }

  /** Takes a queued event without waiting. */
  poll(): T | undefined {
    return this.queued.shift();
  }

  /** Drops every queued event that `keep` refuses (stale troubles of a closed browser). */
  filter(keep: (event: T) => boolean): void {
    const kept = this.queued.filter(keep);
    this.queued.length = 0;
    this.queued.push(...kept);
  }

  next(timeoutMs?: number): Promise<T | null> {
    const first = this.queued.shift();
    if (first !== undefined) return Promise.resolve(first);
    return new Promise<T | null>((resolve) => {
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              this.waiter = undefined;
              resolve(null);
            }, timeoutMs);
      this.waiter = (value) => {
        if (timer) clearTimeout(timer);
        resolve(value);
      };
    });
  }
}
