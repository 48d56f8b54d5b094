/**
 * The hate-raid guard's removals, sent within Helix's limits (issue 40): a batch of viewers is
 * queued once each (a viewer already waiting is not added again) and sent at most `perSecond`
 * calls a second, evenly spaced, so a raid of hundreds costs a steady share of the bot's 800
 * Helix points a minute and leaves room for its replies, instead of one call per line at once.
 * The line is bounded: past `max` waiting viewers the rest of a batch is dropped (counted).
 */
export class PurgeQueue {
  private readonly waiting: { userId: string; reason: string }[] = [];
  private readonly queued = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private lastSentAt = 0;
  private closed = false;
  readonly stats = { sent: 0, dropped: 0 };
  /** Settles when the line is empty (tests wait on it). */
  private idle: Promise<void> = Promise.resolve();
  private settleIdle: (() => void) | null = null;

  constructor(
    private readonly opts: {
      perSecond: number;
      max: number;
      send(userId: string, reason: string): Promise<void>;
      onError(err: unknown): void;
    },
  ) {}

  add(userIds: readonly string[], reason: string): void {
    if (this.closed) return;
    for (const userId of userIds) {
      if (this.queued.has(userId)) continue;
      if (this.waiting.length >= this.opts.max) {
        this.stats.dropped += 1;
        continue;
      }
      this.queued.add(userId);
      this.waiting.push({ userId, reason });
    }
    if (this.waiting.length > 0 && !this.timer) {
      this.idle = new Promise((resolve) => (this.settleIdle = resolve));
      this.schedule();
    }
  }

  /** Resolves once every viewer queued so far has been sent. */
  drained(): Promise<void> {
    return this.waiting.length === 0 && !this.timer ? Promise.resolve() : this.idle;
  }

  private schedule(): void {
    const gap = 1000 / this.opts.perSecond;
    const wait = Math.max(0, this.lastSentAt + gap - Date.now());
    this.timer = setTimeout(() => void this.next(), wait);
  }

  private async next(): Promise<void> {
    const job = this.waiting.shift();
    if (!job || this.closed) {
      this.timer = null;
      this.settleIdle?.();
      return;
    }
    this.lastSentAt = Date.now();
    try {
      await this.opts.send(job.userId, job.reason);
      this.stats.sent += 1;
    } catch (err) {
      this.opts.onError(err);
    } finally {
      this.queued.delete(job.userId);
    }
    if (this.waiting.length > 0 && !this.closed) this.schedule();
    else {
      this.timer = null;
      this.settleIdle?.();
    }
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.waiting.length = 0;
    this.queued.clear();
    this.settleIdle?.();
  }
}
