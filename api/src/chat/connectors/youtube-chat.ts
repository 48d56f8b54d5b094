import { z } from 'zod';
import { CHAT_YOUTUBE_MAX_RESULTS, CHAT_YOUTUBE_POLL_MS, linkSegments } from '@onair/protocol';
import { platformCall, PlatformCallError } from '../../platforms/platform-http.ts';
import { normaliseYouTubeItem } from '../../platforms/youtube-events.ts';
import type { InboundEvent } from '../../platforms/inbound.ts';
import { ChatSendError, type ChatConnector, type ConnectorContext, type InboundChat } from '../../platforms/chat-connector.ts';
import { cleanPlatformText, nextBackoff, safeImageUrl, sleep } from '../../platforms/connector-kit.ts';

const broadcastsSchema = z
  .object({ items: z.array(z.object({ id: z.string(), snippet: z.object({ liveChatId: z.string().optional() }).loose() }).loose()).default([]) })
  .loose();

const itemSchema = z
  .object({
    id: z.string().min(1).max(200),
    snippet: z
      .object({
        type: z.string(),
        publishedAt: z.string().optional(),
        displayMessage: z.string().optional(),
        textMessageDetails: z.object({ messageText: z.string() }).optional(),
      })
      .loose(),
    authorDetails: z
      .object({ channelId: z.string().optional(), displayName: z.string().optional(), profileImageUrl: z.string().optional() })
      .loose()
      .optional(),
  })
  .loose();

const pageSchema = z
  .object({
    pollingIntervalMillis: z.number().int().nonnegative().optional(),
    nextPageToken: z.string().optional(),
    offlineAt: z.string().optional(),
    items: z.array(z.unknown()).default([]),
  })
  .loose();

type Call = <T>(fn: (token: string) => Promise<T>) => Promise<T>;

/**
 * YouTube live chat through the Data API v3: the active liveBroadcast names the liveChatId, then
 * liveChatMessages.list is polled with maxResults 2000 and each answer's nextPageToken, waiting the
 * pollingIntervalMillis it names (30 s when it names none). `offlineAt` means the chat ended. A 401
 * gets one token refresh and a retry; no active broadcast is asked again after
 * CHAT_NOT_LIVE_RETRY_MS (spec §9: 25 s); 500s and 429s back off up to CHAT_ERROR_RETRY_MS.
 */
export class YouTubeChatConnector implements ChatConnector {
  private readonly abort = new AbortController();
  private liveChatId: string | null = null;
  /**
   * Polls and sends take turns: YouTube lists a message sent from here in its next page, and the
   * poll must know its id by then to leave it out (it is already shown, as the sent message).
   */
  private turn: Promise<unknown> = Promise.resolve();
  private readonly sentIds = new Set<string>();
  private readonly api: string;

  constructor(private readonly ctx: ConnectorContext) {
    this.api = ctx.config.YOUTUBE_API_URL;
  }

  start(): void {
    void this.run().catch((err: unknown) => this.ctx.logger.error({ err, destinationId: this.ctx.destination.id }, 'youtube chat stopped'));
  }

  /** Runs a call with the token; after a 401 refreshes once and runs it again. */
  private readonly withToken: Call = async (fn) => {
    const token = await this.ctx.tokens.current();
    if (!token) throw new PlatformCallError(401, 'no token');
    try {
      return await fn(token);
    } catch (err) {
      if (!(err instanceof PlatformCallError) || err.status !== 401) throw err;
    }
    const fresh = await this.ctx.tokens.refresh();
    if (!fresh) throw new PlatformCallError(401, 'token refused after a refresh');
    return fn(fresh);
  };

  private async run(): Promise<void> {
    const signal = this.abort.signal;
    const where = { destinationId: this.ctx.destination.id, platform: 'youtube' };
    let backoff = 0;
    this.ctx.onState('connecting');
    while (!signal.aborted) {
      try {
        const answer = broadcastsSchema.parse(
          await this.withToken((token) => platformCall(`${this.api}/liveBroadcasts?part=snippet&broadcastStatus=active&broadcastType=all`, { token })),
        );
        const chatId = answer.items.find((b) => b.snippet.liveChatId)?.snippet.liveChatId ?? null;
        if (!chatId) {
          this.ctx.onState('connecting', 'Waiting for YouTube to start the broadcast.');
          await sleep(this.ctx.config.CHAT_NOT_LIVE_RETRY_MS, signal);
          continue;
        }
        this.liveChatId = chatId;
        backoff = 0;
        const ended = await this.poll(chatId, signal);
        if (ended) {
          this.liveChatId = null;
          this.ctx.onState('offline', 'The YouTube chat has ended.');
          await sleep(this.ctx.config.CHAT_NOT_LIVE_RETRY_MS, signal);
        }
      } catch (err) {
        if (signal.aborted) return;
        if (err instanceof PlatformCallError && err.status === 401) {
          this.ctx.onState('offline', 'Your YouTube account requires authentication.');
          await sleep(this.ctx.config.CHAT_ERROR_RETRY_MS, signal);
          continue;
        }
        backoff = nextBackoff(backoff, this.ctx.config.CHAT_ERROR_RETRY_MS);
        const status = err instanceof PlatformCallError ? err.status : 0;
        this.ctx.logger.info({ ...where, status, retryInMs: backoff, err: (err as Error).message }, 'youtube chat call failed; retrying');
        this.ctx.onState('reconnecting', status === 429 ? 'YouTube is limiting requests. Retrying…' : 'YouTube did not answer. Retrying…');
        await sleep(backoff, signal);
      }
    }
  }

  private inTurn<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.turn.then(fn, fn);
    this.turn = run.catch(() => undefined);
    return run;
  }

  /** Polls one chat until it ends (true) or a call fails (thrown). */
  private async poll(chatId: string, signal: AbortSignal): Promise<boolean> {
    const saved = await this.ctx.cursor.get();
    let pageToken = saved?.startsWith(`${chatId}:`) ? saved.slice(chatId.length + 1) : null;
    while (!signal.aborted) {
      const query = new URLSearchParams({ liveChatId: chatId, part: 'snippet,authorDetails', maxResults: String(CHAT_YOUTUBE_MAX_RESULTS) });
      if (pageToken) query.set('pageToken', pageToken);
      const { page, stored } = await this.inTurn(async () => {
        const page = pageSchema.parse(await this.withToken((token) => platformCall(`${this.api}/liveChat/messages?${query.toString()}`, { token })));
        this.ctx.onState('live');
        const messages: InboundChat[] = [];
        const events: InboundEvent[] = [];
        for (const raw of page.items) {
          // Super Chats, Super Stickers and memberships are also events of the feed.
          const event = this.ctx.onEvents
            ? normaliseYouTubeItem(
                raw,
                (t) => cleanPlatformText(t, this.ctx.logger, { destinationId: this.ctx.destination.id, platform: 'youtube' }),
                safeImageUrl,
              )
            : null;
          if (event) events.push(event);
          const item = itemSchema.safeParse(raw);
          if (!item.success) {
            this.ctx.logger.info({ destinationId: this.ctx.destination.id }, 'youtube chat item not understood; dropped');
            continue;
          }
          const m = this.toInbound(item.data);
          if (m && !this.sentIds.delete(m.platformMessageId)) messages.push(m);
        }
        // The page token moves on only once this page is stored: an owner that dies in between
        // leaves the page to be read again by the next one (and the store keeps each message once).
        const messagesStored = messages.length === 0 || (await this.ctx.onMessages(messages));
        const eventsStored = events.length === 0 || !this.ctx.onEvents || (await this.ctx.onEvents(events));
        return { page, stored: messagesStored && eventsStored };
      });
      if (!stored) {
        await sleep(this.ctx.config.CHAT_ERROR_RETRY_MS, signal);
        continue;
      }
      if (page.nextPageToken) {
        pageToken = page.nextPageToken;
        await this.ctx.cursor.set(`${chatId}:${pageToken}`);
      }
      if (page.offlineAt) return true;
      await sleep(page.pollingIntervalMillis ?? CHAT_YOUTUBE_POLL_MS, signal);
    }
    return false;
  }

  private toInbound(item: z.infer<typeof itemSchema>): InboundChat | null {
    // Super Chats, memberships and deletions have their own types; the panel shows text messages.
    if (item.snippet.type !== 'textMessageEvent' && item.snippet.type !== 'superChatEvent') return null;
    const raw = item.snippet.textMessageDetails?.messageText ?? item.snippet.displayMessage ?? '';
    if (raw === '') return null;
    const text = cleanPlatformText(raw, this.ctx.logger, { destinationId: this.ctx.destination.id, platform: 'youtube' });
    const published = item.snippet.publishedAt ? new Date(item.snippet.publishedAt) : new Date();
    return {
      platformMessageId: item.id,
      sender: item.authorDetails?.channelId ?? null,
      displayName: (item.authorDetails?.displayName ?? 'YouTube viewer').slice(0, 200),
      avatar: safeImageUrl(item.authorDetails?.profileImageUrl),
      content: text,
      segments: linkSegments(text),
      sentAt: Number.isNaN(published.getTime()) ? new Date() : published,
      private: false,
    };
  }

  async send(text: string): Promise<{ platformMessageId: string | null }> {
    const chatId = this.liveChatId;
    if (!chatId) throw new ChatSendError('The YouTube chat is not live.');
    try {
      const id = await this.inTurn(async () => {
        const answer = await this.withToken((token) =>
          platformCall<{ id?: string }>(`${this.api}/liveChat/messages?part=snippet`, {
            token,
            json: { snippet: { liveChatId: chatId, type: 'textMessageEvent', textMessageDetails: { messageText: text } } },
          }),
        );
        const sentId = typeof answer?.id === 'string' ? answer.id : null;
        // Known before the next poll runs, which lists it.
        if (sentId) this.sentIds.add(sentId);
        return sentId;
      });
      return { platformMessageId: id };
    } catch (err) {
      if (err instanceof PlatformCallError) {
        if (err.status === 401) throw new ChatSendError('Your YouTube account requires authentication.');
        if (err.status >= 400 && err.status < 500) throw new ChatSendError(`YouTube refused the message: ${err.platformMessage}`);
        throw new ChatSendError('YouTube did not answer. Try again in a moment.');
      }
      throw err;
    }
  }

  async stop(): Promise<void> {
    this.abort.abort();
  }
}
