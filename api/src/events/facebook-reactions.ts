import { randomUUID } from 'node:crypto';
import { createParser } from 'eventsource-parser';
import { z } from 'zod';
import type { Logger } from '@onair/runtime';
import { nextBackoff, sleep } from '../platforms/connector-kit.ts';
import { platformCall, PlatformCallError } from '../platforms/platform-http.ts';
import type { InboundEvent } from './twitch-events.ts';

/**
 * What Facebook's Graph API offers a live video's events feed (read in its Live Video API docs,
 * "Interacting with viewers"): its comments (the platform chat already reads them) and its
 * reactions, as server-sent events of `/{live-video-id}/live_reactions?fields=reaction_stream`:
 * counts by reaction type over a short period, without who reacted. Follows of a Page, Stars and
 * subscriptions reach only a Page's webhooks (a public HTTPS endpoint and App Review), so the feed
 * does not pretend to have them. Each burst of reactions becomes one `facebookReactions` event.
 */
export const FACEBOOK_REACTIONS_TYPE = 'facebookReactions';

/** Who the feed names for reactions: Facebook says how many, not who. */
export const FACEBOOK_VIEWERS = 'Facebook viewers';

const reactionStreamSchema = z.object({
  reaction_stream: z.array(z.object({ key: z.string().regex(/^[A-Z_]{1,20}$/), value: z.number().int().min(0).max(1_000_000_000) })).max(20),
});
const liveVideosSchema = z.object({ data: z.array(z.object({ id: z.string(), status: z.string().optional() }).loose()).default([]) }).loose();

export interface FacebookReactionsContext {
  /** `ownerId`: where the live video is (the chosen page, group or event, else the account's timeline). */
  destination: { id: string; projectId: string; ownerId: string };
  config: { FACEBOOK_GRAPH_URL: string; FACEBOOK_STREAMING_URL: string; CHAT_NOT_LIVE_RETRY_MS: number; CHAT_ERROR_RETRY_MS: number };
  logger: Logger;
  tokens: { current(): Promise<string | null>; refresh(): Promise<string | null> };
  onEvents(events: InboundEvent[]): Promise<void>;
  onState(state: 'connecting' | 'connected' | 'reconnecting' | 'error', error?: string): void;
}

/** One burst of reactions as a feed event; null when it counts none. */
export function reactionsEvent(videoId: string, raw: unknown, at: Date): InboundEvent | null {
  const parsed = reactionStreamSchema.safeParse(raw);
  if (!parsed.success) return null;
  const reactions: Record<string, number> = {};
  for (const { key, value } of parsed.data.reaction_stream) if (value > 0) reactions[key] = (reactions[key] ?? 0) + value;
  const total = Object.values(reactions).reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  return {
    // Facebook numbers no reaction burst and replays none after a reconnect: nothing to deduplicate.
    platformEventId: `${videoId}:${randomUUID()}`,
    type: FACEBOOK_REACTIONS_TYPE,
    platformUsername: FACEBOOK_VIEWERS,
    platformUserId: null,
    avatar: null,
    value: total,
    data: { reactions },
    platformCreatedAt: at,
    replay: false,
    suppressed: false,
  };
}

/**
 * Facebook live reactions for one destination while it is live: the owner's LIVE live video found
 * through the Graph API (asked again after CHAT_NOT_LIVE_RETRY_MS while there is none), then its
 * reaction stream read until it ends or breaks (then again, backing off up to CHAT_ERROR_RETRY_MS);
 * a 401 refreshes the token once, and a refused refresh is 'needs sign-in' (the destination shows it).
 */
export class FacebookReactionsConnector {
  private readonly abort = new AbortController();

  constructor(private readonly ctx: FacebookReactionsContext) {}

  private get where() {
    return { destinationId: this.ctx.destination.id, projectId: this.ctx.destination.projectId, platform: 'facebook' };
  }

  start(): void {
    void this.run().catch((err: unknown) => this.ctx.logger.error({ ...this.where, err }, 'facebook reactions stopped'));
  }

  async stop(): Promise<void> {
    this.abort.abort();
  }

  private async run(): Promise<void> {
    const signal = this.abort.signal;
    const { ownerId } = this.ctx.destination;
    let backoff = 0;
    let refreshed = false;
    this.ctx.onState('connecting');
    while (!signal.aborted) {
      try {
        const token = refreshed ? await this.ctx.tokens.refresh() : await this.ctx.tokens.current();
        if (!token) throw new PlatformCallError(401, 'no token');
        const query = new URLSearchParams({ broadcast_status: '["LIVE"]', fields: 'id,status' });
        const videos = liveVideosSchema.parse(
          await platformCall(`${this.ctx.config.FACEBOOK_GRAPH_URL}/${encodeURIComponent(ownerId)}/live_videos?${query.toString()}`, { token }),
        );
        const video = videos.data.find((v) => (v.status ?? 'LIVE') === 'LIVE');
        if (!video) {
          this.ctx.onState('connecting', 'Waiting for Facebook to start the live video.');
          await sleep(this.ctx.config.CHAT_NOT_LIVE_RETRY_MS, signal);
          continue;
        }
        await this.stream(video.id, token, signal);
        refreshed = false;
        backoff = 0;
        if (!signal.aborted) this.ctx.onState('reconnecting');
      } catch (err) {
        if (signal.aborted) return;
        const status = err instanceof PlatformCallError ? err.status : 0;
        if (status === 401 && !refreshed) {
          refreshed = true;
          continue;
        }
        if (status === 401) {
          this.ctx.onState('error', 'Your Facebook account needs sign-in.');
          await sleep(this.ctx.config.CHAT_ERROR_RETRY_MS, signal);
          refreshed = false;
          continue;
        }
        backoff = nextBackoff(backoff, this.ctx.config.CHAT_ERROR_RETRY_MS);
        this.ctx.logger.info({ ...this.where, status, retryInMs: backoff, err: (err as Error).message }, 'facebook reactions failed; retrying');
        this.ctx.onState('reconnecting', status === 429 ? 'Facebook is limiting requests. Retrying…' : 'Facebook did not answer. Retrying…');
        await sleep(backoff, signal);
      }
    }
  }

  /** Reads one live video's reaction stream until it ends or breaks; reactions are handed over in the order they came. */
  private async stream(videoId: string, token: string, signal: AbortSignal): Promise<void> {
    const query = new URLSearchParams({ fields: 'reaction_stream' });
    // The answer's headers must come within 30 s; the body is a stream that lasts the broadcast.
    const late = new AbortController();
    const connecting = setTimeout(() => late.abort(), 30_000);
    let res: Response;
    try {
      res = await fetch(`${this.ctx.config.FACEBOOK_STREAMING_URL}/${encodeURIComponent(videoId)}/live_reactions?${query.toString()}`, {
        headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` },
        signal: AbortSignal.any([signal, late.signal]),
      });
    } catch {
      throw new PlatformCallError(503, 'unreachable');
    } finally {
      clearTimeout(connecting);
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel().catch(() => undefined);
      throw new PlatformCallError(res.status, `reaction stream answered ${res.status}`);
    }
    this.ctx.onState('connected');
    let chain = Promise.resolve();
    let dropped = 0;
    const parser = createParser({
      onEvent: (message) => {
        let data: unknown;
        try {
          data = JSON.parse(message.data);
        } catch {
          dropped += 1;
          return;
        }
        const event = reactionsEvent(videoId, data, new Date());
        if (!event) {
          if (!reactionStreamSchema.safeParse(data).success) dropped += 1;
          return;
        }
        chain = chain
          .then(() => this.ctx.onEvents([event]))
          .catch((err: unknown) => this.ctx.logger.warn({ ...this.where, err: (err as Error).message }, 'facebook reactions not stored'));
      },
    });
    const decoder = new TextDecoder();
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read().catch((err: unknown) => {
          if (signal.aborted) return { value: undefined, done: true as const };
          throw new PlatformCallError(0, `the reaction stream broke: ${(err as Error).message}`);
        });
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
        if (dropped > 0) {
          this.ctx.logger.info({ ...this.where, dropped }, 'facebook stream events that are not reactions dropped');
          dropped = 0;
        }
      }
    } finally {
      reader.releaseLock();
      await res.body.cancel().catch(() => undefined);
      await chain;
    }
  }
}
