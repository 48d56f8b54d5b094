import { randomUUID } from 'node:crypto';
import { createParser } from 'eventsource-parser';
import { z } from 'zod';
import type { Logger } from '@onair/runtime';
import { facebookRetryText, runFacebookLiveVideo } from '../platforms/facebook-live-video.ts';
import { PlatformCallError } from '../platforms/platform-http.ts';
import type { InboundEvent } from '../platforms/inbound.ts';

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
 * and followed by the loop of platforms/facebook-live-video.ts (as the live comments are), its
 * reaction stream read until it ends or breaks; a refused token refresh is 'needs sign-in' (the
 * destination shows it).
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
    this.ctx.onState('connecting');
    await runFacebookLiveVideo({
      ownerId: this.ctx.destination.ownerId,
      config: this.ctx.config,
      tokens: this.ctx.tokens,
      logger: this.ctx.logger,
      where: this.where,
      what: 'facebook reactions',
      signal: this.abort.signal,
      stream: (videoId, token, signal) => this.stream(videoId, token, signal),
      onPhase: (p) => {
        if (p.phase === 'waiting') this.ctx.onState('connecting', 'Waiting for Facebook to start the live video.');
        else if (p.phase === 'ended') this.ctx.onState('reconnecting');
        else if (p.phase === 'needs-sign-in') this.ctx.onState('error', 'Your Facebook account needs sign-in.');
        else this.ctx.onState('reconnecting', facebookRetryText(p.rateLimited));
      },
    });
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
