import { createParser } from 'eventsource-parser';
import { z } from 'zod';
import { linkSegments } from '@onair/protocol';
import { platformCall, PlatformCallError } from '../../platforms/platform-http.ts';
import { ChatSendError, type ChatConnector, type ConnectorContext, type InboundChat } from '../../platforms/chat-connector.ts';
import { cleanPlatformText, safeImageUrl } from '../../platforms/connector-kit.ts';
import { facebookRetryText, runFacebookLiveVideo } from '../../platforms/facebook-live-video.ts';

const commentSchema = z
  .object({
    id: z.string().min(1).max(200),
    message: z.string(),
    from: z.object({ id: z.string().max(100), name: z.string().max(200) }).optional(),
    created_time: z.string().optional(),
  })
  .loose();
const pictureSchema = z.object({ data: z.object({ url: z.string() }).loose() }).loose();

const AVATAR_CACHE = 5_000;

/**
 * Facebook live comments: the owner's LIVE live video is found and followed by the loop of
 * platforms/facebook-live-video.ts (no live video: asked again after CHAT_NOT_LIVE_RETRY_MS, spec
 * §9: 25 s; an error: retried after CHAT_ERROR_RETRY_MS, 30 s, at most, backing off from 1 s), then
 * its comments arrive as server-sent events from the streaming Graph API, parsed by
 * eventsource-parser; each sender's avatar is read once from `/{user}/picture`. A stream silent
 * for CHAT_STREAM_STALL_MS is opened again; an event that is not a comment is dropped with a log
 * line. Live comments are read only: Facebook is never a target of the To selector.
 */
export class FacebookChatConnector implements ChatConnector {
  private readonly abort = new AbortController();
  private readonly avatars = new Map<string, string | null>();

  constructor(private readonly ctx: ConnectorContext) {}

  start(): void {
    void this.run().catch((err: unknown) => this.ctx.logger.error({ err, destinationId: this.ctx.destination.id }, 'facebook chat stopped'));
  }

  private async token(refresh: boolean): Promise<string> {
    const token = refresh ? await this.ctx.tokens.refresh() : await this.ctx.tokens.current();
    if (!token) throw new PlatformCallError(401, 'no token');
    return token;
  }

  private async run(): Promise<void> {
    const owner = this.ctx.destination.targetId ?? this.ctx.destination.platformAccountId;
    this.ctx.onState('connecting');
    if (!owner) {
      this.ctx.onState('offline', 'This Facebook destination has no account.');
      return;
    }
    await runFacebookLiveVideo({
      ownerId: owner,
      config: this.ctx.config,
      tokens: this.ctx.tokens,
      logger: this.ctx.logger,
      where: { destinationId: this.ctx.destination.id, platform: 'facebook' },
      what: 'facebook chat',
      signal: this.abort.signal,
      stream: (videoId, token, signal) => this.stream(videoId, token, signal),
      onPhase: (p) => {
        if (p.phase === 'waiting') this.ctx.onState('connecting', 'Waiting for Facebook to start the live video.');
        else if (p.phase === 'ended') this.ctx.onState('reconnecting', 'The Facebook comments stream ended. Reconnecting…');
        else if (p.phase === 'needs-sign-in') this.ctx.onState('offline', 'Your Facebook account requires authentication.');
        else this.ctx.onState('reconnecting', facebookRetryText(p.rateLimited));
      },
    });
  }

  /** Reads one live video's comment stream until it ends, breaks or stalls. */
  private async stream(videoId: string, token: string, signal: AbortSignal): Promise<void> {
    const query = new URLSearchParams({ comment_rate: this.ctx.config.FACEBOOK_COMMENT_RATE, fields: 'from{name,id},message,created_time' });
    const stall = new AbortController();
    const both = AbortSignal.any([signal, stall.signal]);
    let res: Response;
    // The answer's headers must come within 30 s; the body is a stream that lasts the broadcast.
    const connecting = setTimeout(() => stall.abort(), 30_000);
    try {
      res = await fetch(`${this.ctx.config.FACEBOOK_STREAMING_URL}/${encodeURIComponent(videoId)}/live_comments?${query.toString()}`, {
        headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` },
        signal: both,
      });
    } catch {
      throw new PlatformCallError(503, 'unreachable');
    } finally {
      clearTimeout(connecting);
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel().catch(() => undefined);
      throw new PlatformCallError(res.status, `stream answered ${res.status}`);
    }
    this.ctx.onState('live');
    let pending: InboundChat[] = [];
    let dropped = 0;
    const parser = createParser({
      onEvent: (event) => {
        let data: unknown;
        try {
          data = JSON.parse(event.data);
        } catch {
          dropped += 1;
          return;
        }
        const comment = commentSchema.safeParse(data);
        if (!comment.success) {
          dropped += 1;
          return;
        }
        pending.push(this.toInbound(comment.data));
      },
      onError: () => {
        dropped += 1;
      },
    });
    let timer = setTimeout(() => stall.abort(), this.ctx.config.CHAT_STREAM_STALL_MS);
    const decoder = new TextDecoder();
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read().catch((err: unknown) => {
          if (stall.signal.aborted && !signal.aborted) throw new PlatformCallError(0, 'the comments stream fell silent');
          if (signal.aborted) return { value: undefined, done: true as const };
          throw new PlatformCallError(0, `the comments stream broke: ${(err as Error).message}`);
        });
        if (done) break;
        clearTimeout(timer);
        timer = setTimeout(() => stall.abort(), this.ctx.config.CHAT_STREAM_STALL_MS);
        parser.feed(decoder.decode(value, { stream: true }));
        if (dropped > 0) {
          this.ctx.logger.info({ destinationId: this.ctx.destination.id, dropped }, 'facebook stream events that are not comments dropped');
          dropped = 0;
        }
        if (pending.length > 0) {
          const batch = pending;
          pending = [];
          void this.withAvatars(batch).then((messages) => this.ctx.onMessages(messages));
        }
      }
    } finally {
      clearTimeout(timer);
      reader.releaseLock();
      await res.body.cancel().catch(() => undefined);
    }
  }

  private toInbound(c: z.infer<typeof commentSchema>): InboundChat {
    const text = cleanPlatformText(c.message, this.ctx.logger, { destinationId: this.ctx.destination.id, platform: 'facebook' });
    const created = c.created_time ? new Date(c.created_time.replace(/\+0000$/, 'Z')) : new Date();
    return {
      platformMessageId: c.id,
      sender: c.from?.id ?? null,
      displayName: c.from?.name ?? 'Facebook user',
      avatar: null,
      content: text,
      segments: linkSegments(text),
      sentAt: Number.isNaN(created.getTime()) ? new Date() : created,
      private: false,
    };
  }

  /** Each sender's picture (450×450), asked once per sender and remembered; a failure leaves no avatar. */
  private async withAvatars(messages: InboundChat[]): Promise<InboundChat[]> {
    const missing = [...new Set(messages.map((m) => m.sender).filter((s): s is string => s !== null && !this.avatars.has(s)))];
    await Promise.all(
      missing.map(async (userId) => {
        try {
          const token = await this.token(false);
          const query = new URLSearchParams({ height: '450', width: '450', redirect: 'false' });
          const answer = pictureSchema.parse(
            await platformCall(`${this.ctx.config.FACEBOOK_GRAPH_URL}/${encodeURIComponent(userId)}/picture?${query.toString()}`, { token }),
          );
          this.remember(userId, safeImageUrl(answer.data.url));
        } catch {
          this.remember(userId, null);
        }
      }),
    );
    return messages.map((m) => ({ ...m, avatar: m.sender ? (this.avatars.get(m.sender) ?? null) : null }));
  }

  private remember(userId: string, url: string | null): void {
    if (this.avatars.size >= AVATAR_CACHE) this.avatars.delete(this.avatars.keys().next().value!);
    this.avatars.set(userId, url);
  }

  send(): Promise<{ platformMessageId: string | null }> {
    return Promise.reject(new ChatSendError('Facebook live comments cannot be written from the studio.'));
  }

  async stop(): Promise<void> {
    this.abort.abort();
  }
}
