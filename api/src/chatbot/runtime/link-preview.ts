import { createHash } from 'node:crypto';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIPv6, type LookupFunction } from 'node:net';
import type { Redis } from 'ioredis';
import { CHATBOT_MESSAGE_MAX } from '@onair/protocol';
import type { EgressPolicy, Logger } from '@onair/runtime';
import { chatbotKeys } from '../keys.ts';

export const PREVIEW_TIMEOUT_MS = 3000;
export const PREVIEW_MAX_BYTES = 256 * 1024;
/** The same link is previewed at most once in this window per channel (across replicas: a Redis key). */
export const PREVIEW_SAME_URL_SECONDS = 300;
const MAX_REDIRECTS = 3;
/** Fetches one running bot may have under way at once; links beyond it are not previewed. */
const MAX_IN_FLIGHT = 2;
const TITLE_MAX = 200;
const META_SCAN_MAX = 200;
const TAG_MAX = 4096;

export type PreviewOutcome = { ok: true; title: string; domain: string } | { ok: false; reason: string };

/**
 * Fetches a page for a link preview through the egress policy of web-page sources and RTMP
 * destinations (runtime's EgressPolicy): every hop (the link and each redirect) is checked, the
 * connection goes to the address the policy checked (never re-resolved: no DNS rebinding), only
 * http/https, only text/html, at most `maxBytes` read and `timeoutMs` in all. Nothing here throws:
 * a failure is an outcome with a reason (for the log), and the bot posts nothing.
 */
export async function fetchLinkPreview(link: string, policy: EgressPolicy, options: { timeoutMs?: number; maxBytes?: number } = {}): Promise<PreviewOutcome> {
  const timeoutMs = options.timeoutMs ?? PREVIEW_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? PREVIEW_MAX_BYTES;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error('timed out')), timeoutMs);
  const aborted = new Promise<never>((_resolve, reject) => abort.signal.addEventListener('abort', () => reject(new Error('timed out')), { once: true }));
  aborted.catch(() => undefined);
  try {
    let current = link;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const decision = await Promise.race([policy.checkUrl(current), aborted]);
      if (!decision.allowed) return { ok: false, reason: `refused: ${decision.reason}` };
      const res = await Promise.race([get(current, decision.address, abort.signal), aborted]);
      const location = res.headers.location;
      if (res.statusCode !== undefined && res.statusCode >= 300 && res.statusCode < 400 && location) {
        res.destroy();
        current = new URL(location, current).href;
        continue;
      }
      if (res.statusCode !== 200) {
        res.destroy();
        return { ok: false, reason: `status ${res.statusCode}` };
      }
      const type = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'text/html' && type !== 'application/xhtml+xml') {
        res.destroy();
        return { ok: false, reason: `not a page (${type || 'no content type'})` };
      }
      const declared = Number(res.headers['content-length'] ?? 0);
      if (declared > maxBytes) {
        res.destroy();
        return { ok: false, reason: `page too large (${declared} bytes)` };
      }
      const html = await Promise.race([readPrefix(res, maxBytes), aborted]);
      const title = pageTitle(html);
      if (!title) return { ok: false, reason: 'no title' };
      return { ok: true, title, domain: new URL(current).hostname.replace(/^www\./, '') };
    }
    return { ok: false, reason: 'too many redirects' };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

function get(url: string, address: string, signal: AbortSignal): Promise<IncomingMessage> {
  const target = new URL(url);
  const family = isIPv6(address) ? 6 : 4;
  // Connect to the address the policy checked, whatever the name resolves to now.
  const lookup = ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) =>
    opts.all ? cb(null, [{ address, family }]) : cb(null, address, family)) as unknown as LookupFunction;
  const options: RequestOptions = {
    method: 'GET',
    signal,
    agent: false,
    lookup,
    headers: { 'user-agent': 'OnAirBot (link preview)', accept: 'text/html,application/xhtml+xml', 'accept-encoding': 'identity' },
  };
  return new Promise((resolve, reject) => {
    const req = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, options, resolve);
    req.on('error', reject);
    req.end();
  });
}

/** The first `maxBytes` of the body (the rest is never read: the connection is closed). */
function readPrefix(res: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      res.removeAllListeners('data');
      res.destroy();
      resolve(new TextDecoder('utf-8').decode(Buffer.concat(chunks).subarray(0, maxBytes)));
    };
    res.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= maxBytes) done();
    });
    res.on('end', done);
    res.on('error', reject);
  });
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '';
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}

/** Plain text for chat: entities decoded, control characters and runs of spaces made one space. */
function asText(raw: string): string {
  const text = decodeEntities(raw)
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return [...text].slice(0, TITLE_MAX).join('');
}

/**
 * The page's og:title, else its <title>. No HTML parser is installed in the project, so this is a
 * bounded scan with indexOf (linear in the prefix read, whatever the page holds; no regular
 * expression runs over the whole page): a title is RCDATA in HTML, so what sits between <title>
 * and </title> is text, `<script>` included, and it stays text.
 */
export function pageTitle(html: string): string | null {
  const lower = html.toLowerCase();
  let from = 0;
  for (let i = 0; i < META_SCAN_MAX; i++) {
    const start = lower.indexOf('<meta', from);
    if (start < 0) break;
    const end = lower.indexOf('>', start);
    if (end < 0) break;
    from = end + 1;
    if (end - start > TAG_MAX) continue;
    const tag = html.slice(start, end);
    if (!/\b(property|name)\s*=\s*["']?og:title["'\s/]/i.test(`${tag} `)) continue;
    const content = /\bcontent\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(tag);
    const value = asText(content?.[1] ?? content?.[2] ?? content?.[3] ?? '');
    if (value) return value;
  }
  const open = lower.indexOf('<title');
  if (open < 0) return null;
  const gt = lower.indexOf('>', open);
  if (gt < 0) return null;
  const close = lower.indexOf('</title', gt);
  if (close < 0) return null;
  return asText(html.slice(gt + 1, close)) || null;
}

/** The chat line of a preview: plain text, at most the chat message limit. */
export function previewLine(title: string, domain: string): string {
  const suffix = ` (${domain})`;
  const room = CHATBOT_MESSAGE_MAX - 'Link: '.length - suffix.length;
  const chars = [...title];
  const shown = chars.length > room ? `${chars.slice(0, Math.max(0, room - 1)).join('')}…` : title;
  return `Link: ${shown}${suffix}`.slice(0, CHATBOT_MESSAGE_MAX);
}

/**
 * One channel's link previews in its running bot: at most `maxPerMinute` fetches a minute (the
 * creator's setting), the same link at most once per PREVIEW_SAME_URL_SECONDS (a Redis key, so a
 * takeover does not repeat it), at most MAX_IN_FLIGHT fetches at once, and each chat message
 * claimed before its preview is posted. A flood of links therefore costs a handful of fetches.
 */
export class LinkPreviewer {
  private recent: number[] = [];
  private inFlight = 0;
  /** Links fetched, previews posted, links passed over (limits), and preview runs finished (whatever their outcome). */
  readonly stats = { fetched: 0, posted: 0, skipped: 0, finished: 0 };

  constructor(
    private readonly deps: {
      channelId: string;
      policy: EgressPolicy;
      redis: Redis;
      logger: Logger;
      now: () => number;
      claim: (messageId: string) => Promise<boolean>;
      say: (text: string) => Promise<void>;
      timeoutMs?: number;
      maxBytes?: number;
    },
  ) {}

  /** Previews under way now. */
  get running(): number {
    return this.inFlight;
  }

  /** Starts a preview of `link` (never waits for it and never throws). */
  preview(messageId: string, link: string, maxPerMinute: number): void {
    const now = this.deps.now();
    this.recent = this.recent.filter((at) => now - at < 60_000);
    if (this.recent.length >= maxPerMinute || this.inFlight >= MAX_IN_FLIGHT) {
      this.stats.skipped += 1;
      return;
    }
    this.recent.push(now);
    this.inFlight += 1;
    void this.run(messageId, link)
      .catch((err: unknown) => this.deps.logger.warn({ channelId: this.deps.channelId, err: (err as Error).message }, 'chatbot link preview failed'))
      .finally(() => {
        this.inFlight -= 1;
        this.stats.finished += 1;
      });
  }

  private async run(messageId: string, link: string): Promise<void> {
    const { channelId, redis, logger } = this.deps;
    let url: URL;
    try {
      url = new URL(link);
    } catch {
      return;
    }
    url.hash = '';
    const key = chatbotKeys.preview(channelId, createHash('sha256').update(url.href).digest('hex'));
    if ((await redis.set(key, '1', 'EX', PREVIEW_SAME_URL_SECONDS, 'NX')) !== 'OK') {
      this.stats.skipped += 1;
      return;
    }
    this.stats.fetched += 1;
    const outcome = await fetchLinkPreview(url.href, this.deps.policy, {
      ...(this.deps.timeoutMs !== undefined ? { timeoutMs: this.deps.timeoutMs } : {}),
      ...(this.deps.maxBytes !== undefined ? { maxBytes: this.deps.maxBytes } : {}),
    });
    if (!outcome.ok) {
      // The host only, never the whole link (it may carry a token).
      logger.info({ channelId, host: url.hostname, reason: outcome.reason }, 'chatbot link not previewed');
      return;
    }
    if (!(await this.deps.claim(messageId))) return;
    await this.deps.say(previewLine(outcome.title, outcome.domain));
    this.stats.posted += 1;
  }
}
