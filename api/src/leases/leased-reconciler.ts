import type { Logger } from '@onair/runtime';
import type { RedisLease } from './lease.ts';

/** What a leased reconciler runs, told in parts; it decides when each is called. */
export interface ReconcilerParts<Wanted, Run> {
  /** What must run now across the replicas, by id, in the order to take it (read at every round). */
  wanted(): Promise<Map<string, Wanted>>;
  /** Whether what runs here is still what is wanted (the same broadcast, the same login); if not, it stops and its lease is given back. */
  matches(run: Run, wanted: Wanted): boolean;
  /**
   * Starts one whose lease this replica just took. `track` hands over what runs as soon as it
   * does (its callbacks can then tell they are still the one running); not calling it means
   * nothing runs (the lease is kept, so no other replica tries the same).
   */
  start(id: string, wanted: Wanted, track: (run: Run) => void): Promise<void> | void;
  /** Stops one; `released` says whether its lease is given back (not when another replica took it). */
  stop(id: string, run: Run, released: boolean): Promise<void>;
  /** After its lease was given back: what the holder leaves behind (its state key, a word to the studios). */
  afterRelease?(id: string, run: Run): Promise<void>;
  /** At each round this replica keeps the lease of one that runs here. */
  renewed?(id: string, run: Run): Promise<void>;
}

/**
 * Runs what is wanted across api replicas, each thing in exactly one: every `everyMs` it reads
 * the wanted set, stops what runs here and is no longer wanted (giving its lease back), then for
 * each wanted thing renews or takes its lease, starting it when the lease is new here and stopping
 * it when another replica took the lease (a replica that died: that is the failover). Closing
 * stops everything and gives every lease back, so another replica takes over at once.
 */
export class LeasedReconciler<Wanted, Run> {
  private readonly running = new Map<string, Run>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly options: {
      lease: RedisLease;
      everyMs: number;
      logger: Logger;
      /** What the log line of a failed round calls it ('chat supervision'). */
      what: string;
      parts: ReconcilerParts<Wanted, Run>;
    },
  ) {}

  get lease(): RedisLease {
    return this.options.lease;
  }

  /** Starts the rounds (the first after `everyMs`). */
  start(): void {
    this.timer = setInterval(() => {
      this.ticking = this.ticking
        .then(() => this.tick())
        .catch((err: unknown) => this.options.logger.warn({ err: (err as Error).message }, `${this.options.what} failed`));
    }, this.options.everyMs);
    this.timer.unref();
  }

  /** What runs here for this id, if anything. */
  get(id: string): Run | undefined {
    return this.running.get(id);
  }

  /** The ids that run here now. */
  ids(): string[] {
    return [...this.running.keys()];
  }

  /** One round. */
  async tick(): Promise<void> {
    if (this.closed) return;
    const { parts, lease } = this.options;
    const wanted = await parts.wanted();
    for (const [id, run] of this.running) {
      const want = wanted.get(id);
      if (want === undefined || !parts.matches(run, want)) await this.stopOne(id, true);
    }
    for (const [id, want] of wanted) {
      if (this.closed) return;
      const held = await lease.hold(id);
      const run = this.running.get(id);
      if (!held) {
        if (run !== undefined) await this.stopOne(id, false);
        continue;
      }
      if (run !== undefined) await parts.renewed?.(id, run);
      else await parts.start(id, want, (started) => this.running.set(id, started));
    }
  }

  private async stopOne(id: string, release: boolean): Promise<void> {
    const run = this.running.get(id);
    if (run === undefined) return;
    this.running.delete(id);
    await this.options.parts.stop(id, run, release);
    if (release) {
      await this.options.lease.release(id).catch(() => undefined);
      await this.options.parts.afterRelease?.(id, run);
    }
  }

  /** Stops everything that runs here and gives every lease back; the rounds end. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.ticking.catch(() => undefined);
    for (const id of [...this.running.keys()]) await this.stopOne(id, true);
  }
}
