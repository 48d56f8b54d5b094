import { createHmac, randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Redis } from 'ioredis';
import type { Logger } from '@onair/runtime';
import { sameSecret } from './same-secret.ts';

/**
 * Pages opened by whoever holds their address (the render worker, OBS, a creator's browser): chat
 * on screen, alerts and the partner overlays. No session comes with them, so the address carries
 * the credential, a key that is an HMAC under the server's secret (nothing secret stored), and
 * every such page is served with the same headers: its own script and style only (a nonce), no
 * framing, no sniffing, no caching, no referrer.
 */
export class PageKey {
  constructor(
    private readonly secret: string,
    /** Kept apart per kind of page, so one page's key never opens another's. */
    private readonly purpose: string,
  ) {}

  /** The key of one page (`subject`: its id, and whatever else rotates its address). */
  of(subject: string): string {
    return createHmac('sha256', this.secret).update(`${this.purpose}:${subject}`).digest('base64url');
  }

  /** Whether a key from a request (any type) is the page's, compared in constant time. */
  check(subject: string, key: unknown): boolean {
    return typeof key === 'string' && key.length <= 100 && sameSecret(key, this.of(subject));
  }
}

/** What a signed page may load besides its own script and style, as CSP source lists. */
export interface SignedPageSources {
  img?: string;
  media?: string;
}

/** Headers of every signed page's answers (the page, its stream, its refusals). */
const COMMON_HEADERS = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-content-type-options': 'nosniff' } as const;

/** Sends a signed page: `html` gets the nonce its script and style tags must carry. */
export function sendSignedPage(res: Response, html: (nonce: string) => string, sources: SignedPageSources = {}): void {
  const nonce = randomBytes(16).toString('base64');
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    ...(sources.img ? [`img-src ${sources.img}`] : []),
    ...(sources.media ? [`media-src ${sources.media}`] : []),
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  res
    .status(200)
    .set({ 'content-type': 'text/html; charset=utf-8', ...COMMON_HEADERS, 'content-security-policy': csp })
    .send(html(nonce));
}

/** The one answer to a wrong address or key: nothing tells which part was wrong. */
export function signedPageNotFound(res: Response): void {
  res.status(404).set(COMMON_HEADERS).type('text/plain').send('Not found');
}

/** Under the render worker's egress proxy's 10 s idle limit, so a quiet stream stays open. */
const SSE_KEEPALIVE_MS = 5000;

export interface PageEventStreamsOptions<M, C extends { res: Response }> {
  redis: Redis;
  logger: Logger;
  /** What the log lines call the streams ('alerts'). */
  what: string;
  /** The Redis channel of a topic (a project), and the topic of a channel (null: not one of ours). */
  channel: (topic: string) => string;
  topicOf: (channel: string) => string | null | undefined;
  /** A message published on a topic's channel, parsed; undefined when it is not for the pages (null may be a message). */
  parse: (raw: string) => M | undefined;
  /** Writes a message to one open stream. */
  deliver: (client: C, message: M) => void;
}

/**
 * The server-sent event streams of a kind of signed page: the pages open on this replica, by topic,
 * fed from the topics' Redis channels through one subscriber, made when the first stream opens and
 * closed with the last, so a replica with no page open holds no connection for them.
 */
export class PageEventStreams<M, C extends { res: Response }> {
  private readonly streams = new Map<string, Set<C>>();
  private subscriber: Redis | null = null;

  constructor(private readonly options: PageEventStreamsOptions<M, C>) {}

  /**
   * Starts the stream of `client.res` on `topic` (`hello`: the SSE comment it starts with). Once its
   * channel is subscribed, `subscribed` runs (to send the state: read after subscribing, no change
   * is missed and the state sent is never older than one sent before it).
   */
  open(req: Request, topic: string, client: C, hello: string, subscribed?: () => Promise<void>): void {
    const { res } = client;
    res.status(200).set({
      'content-type': 'text/event-stream',
      ...COMMON_HEADERS,
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.flushHeaders();
    // A dropped connection comes back quickly.
    res.write(`retry: 1000\n: ${hello}\n\n`);
    let set = this.streams.get(topic);
    if (!set) {
      set = new Set();
      this.streams.set(topic, set);
    }
    set.add(client);
    void this.ensureSubscriber()
      .subscribe(this.options.channel(topic))
      .then(() => subscribed?.())
      .catch((err: unknown) => this.options.logger.warn({ err: (err as Error).message, topic }, `${this.options.what} stream not started`));
    const keepalive = setInterval(() => res.write(': keepalive\n\n'), SSE_KEEPALIVE_MS);
    req.on('close', () => {
      clearInterval(keepalive);
      const open = this.streams.get(topic);
      open?.delete(client);
      if (open && open.size === 0) {
        this.streams.delete(topic);
        void this.subscriber?.unsubscribe(this.options.channel(topic)).catch(() => undefined);
        if (this.streams.size === 0) this.dropSubscriber();
      }
    });
  }

  /** Ends every open stream (shutdown). */
  close(): void {
    for (const set of this.streams.values()) for (const client of set) client.res.end();
    this.streams.clear();
    this.dropSubscriber();
  }

  private ensureSubscriber(): Redis {
    if (this.subscriber) return this.subscriber;
    const subscriber = this.options.redis.duplicate();
    subscriber.on('error', (err: Error) => this.options.logger.warn({ err: err.message }, `redis ${this.options.what} subscriber connection error`));
    subscriber.on('message', (channel: string, raw: string) => {
      const topic = this.options.topicOf(channel);
      const clients = topic ? this.streams.get(topic) : undefined;
      if (!clients) return;
      const message = this.options.parse(raw);
      if (message === undefined) return;
      for (const client of clients) this.options.deliver(client, message);
    });
    this.subscriber = subscriber;
    return subscriber;
  }

  private dropSubscriber(): void {
    this.subscriber?.disconnect();
    this.subscriber = null;
  }
}

/** JSON.parse that answers undefined for text that is not JSON (a message from Redis is parsed with a schema next). */
export function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}
