import type { Logger } from '@onair/runtime';

/** A Helix call that did not succeed, with Twitch's status and message. */
export class HelixError extends Error {
  override readonly name = 'HelixError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

interface Job {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  attempts: number;
  resolve(value: unknown): void;
  reject(err: Error): void;
}

const MAX_ATTEMPTS = 5;

/**
 * Twitch Helix as the chatbot uses it (send, remove, ban, chat settings, channel info), within
 * Twitch's rate limit: every answer's Ratelimit-Remaining and Ratelimit-Reset are read, and once
 * the bucket is empty nothing more is sent until the reset; a 429 puts the call back at the head
 * of the line for after the reset (up to five tries). The line is bounded: past `maxQueue`
 * waiting calls a new one is refused at once, so a flood cannot grow memory or delay the bot for
 * minutes. A few calls run at a time.
 */
export class HelixClient {
  private readonly queue: Job[] = [];
  private inFlight = 0;
  private blockedUntil = 0;
  private wake: NodeJS.Timeout | null = null;
  private closed = false;
  /** 429s met, calls refused for a full line: for the logs and the benchmark. */
  readonly stats = { rateLimited: 0, dropped: 0, calls: 0 };

  constructor(
    private readonly opts: {
      apiUrl: string;
      clientId: string;
      token: string;
      logger: Logger;
      maxQueue: number;
      concurrency?: number;
      where?: Record<string, unknown>;
    },
  ) {}

  request<T = unknown>(method: string, path: string, query: Record<string, string>, body?: unknown): Promise<T> {
    if (this.closed) return Promise.reject(new HelixError(0, 'The chatbot stopped.'));
    if (this.queue.length >= this.opts.maxQueue) {
      this.stats.dropped += 1;
      return Promise.reject(new HelixError(0, 'Too many Twitch calls waiting; this one was dropped.'));
    }
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ method, path, query, body, attempts: 0, resolve: resolve as (v: unknown) => void, reject });
      this.pump();
    });
  }

  private pump(): void {
    if (this.closed) return;
    const wait = this.blockedUntil - Date.now();
    if (wait > 0) {
      this.wake ??= setTimeout(() => {
        this.wake = null;
        this.pump();
      }, wait);
      return;
    }
    while (this.inFlight < (this.opts.concurrency ?? 4) && this.queue.length > 0) {
      const job = this.queue.shift()!;
      this.inFlight += 1;
      void this.run(job).finally(() => {
        this.inFlight -= 1;
        this.pump();
      });
    }
  }

  private async run(job: Job): Promise<void> {
    job.attempts += 1;
    this.stats.calls += 1;
    const url = new URL(`${this.opts.apiUrl.replace(/\/$/, '')}${job.path}`);
    for (const [k, v] of Object.entries(job.query)) url.searchParams.set(k, v);
    let res: Response;
    try {
      res = await fetch(url, {
        method: job.method,
        headers: {
          'client-id': this.opts.clientId,
          authorization: `Bearer ${this.opts.token}`,
          ...(job.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(job.body === undefined ? {} : { body: JSON.stringify(job.body) }),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (err) {
      job.reject(new HelixError(0, `Twitch could not be reached: ${(err as Error).message}`));
      return;
    }
    const remaining = Number(res.headers.get('ratelimit-remaining'));
    const reset = Number(res.headers.get('ratelimit-reset')) * 1000;
    if (res.status === 429 || (res.headers.has('ratelimit-remaining') && remaining <= 0)) {
      this.blockedUntil = Math.max(this.blockedUntil, Number.isFinite(reset) && reset > Date.now() ? reset : Date.now() + 1000);
    }
    if (res.status === 429) {
      this.stats.rateLimited += 1;
      await res.body?.cancel().catch(() => undefined);
      if (job.attempts >= MAX_ATTEMPTS) {
        job.reject(new HelixError(429, 'Twitch kept refusing: too many requests.'));
        return;
      }
      this.opts.logger.info(
        { ...this.opts.where, path: job.path, until: new Date(this.blockedUntil).toISOString() },
        'helix rate limit reached; waiting for its reset',
      );
      this.queue.unshift(job);
      return;
    }
    const text = await res.text().catch(() => '');
    if (!res.ok) {
      let message = `Twitch answered ${res.status}`;
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? message;
      } catch {
        // Not JSON: the status says enough.
      }
      job.reject(new HelixError(res.status, message));
      return;
    }
    job.resolve(text ? (JSON.parse(text) as unknown) : null);
  }

  close(): void {
    this.closed = true;
    if (this.wake) clearTimeout(this.wake);
    for (const job of this.queue.splice(0)) job.reject(new HelixError(0, 'The chatbot stopped.'));
  }
}
