import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { ChatDoubleBase, json, type TestModeIngest } from './double-http.ts';

/**
 * YouTube live chat as the Data API v3 serves it: liveBroadcasts (broadcastStatus=active) naming
 * the liveChatId, liveChatMessages.list paged by nextPageToken with pollingIntervalMillis and, once
 * the broadcast ended, offlineAt, liveChatMessages.insert of a textMessageEvent, Google's error
 * shapes (401 for a bad token, 403 liveChatEnded, 404 liveChatNotFound), and Google's token
 * endpoint for refreshes (`/token`). Paths are under `/youtube/v3`.
 */
export interface YouTubeChatItem {
  kind: 'youtube#liveChatMessage';
  id: string;
  snippet: {
    type: string;
    liveChatId: string;
    authorChannelId: string;
    publishedAt: string;
    hasDisplayContent: true;
    displayMessage: string;
    textMessageDetails?: { messageText: string };
    [details: string]: unknown;
  };
  authorDetails: {
    channelId: string;
    channelUrl: string;
    displayName: string;
    profileImageUrl: string;
    isVerified: boolean;
    isChatOwner: boolean;
    isChatSponsor: boolean;
    isChatModerator: boolean;
  };
}

const googleError = (code: number, message: string, reason: string) => ({
  error: { code, message, errors: [{ message, domain: 'youtube.liveChat', reason }], status: code === 401 ? 'UNAUTHENTICATED' : 'FAILED_PRECONDITION' },
});

/** One live chat: its broadcast, the channel it is on (null: the double's `owner`), and when it ended. */
interface LiveChat {
  id: string;
  broadcastId: string;
  channelId: string | null;
  offlineAt: string | null;
}

export class YouTubeChatDouble extends ChatDoubleBase {
  /** Every live chat, by id; each channel's is its own (test mode: the chat of the channel that bound its broadcast). */
  private readonly chats = new Map<string, LiveChat>();
  /** The live chat started last (what the controls address when they name no channel). */
  private latest: LiveChat | null = null;
  pollingIntervalMillis = 500;
  readonly items: YouTubeChatItem[] = [];
  /** Every liveChatMessages.insert: the text and the id given to it. */
  readonly inserted: { id: string; text: string }[] = [];
  /** The channel that owns the live chat (in test mode, the account that signed in last). */
  owner = { channelId: 'UCowner000000000000000000', displayName: 'Ada Live' };
  /** Test mode of the one-machine stack: liveStreams hand out this ingest, and binding a broadcast puts the chat live. */
  ingest: TestModeIngest | null = null;
  /** liveBroadcasts inserted (test mode): their title, description and privacy, as the creator set them. */
  readonly broadcasts: { id: string; title: string; description: string; privacyStatus: string }[] = [];
  /** liveStreams inserted (test mode). */
  readonly streamIds = new Set<string>();

  constructor() {
    super('youtube');
    // `channel` (optional): the channel whose live chat is meant; the chat started last otherwise.
    const chatOf = (b: Record<string, unknown>) => (typeof b.channel === 'string' ? this.chatOfChannel(b.channel) : this.latest);
    this.controls.set('go-live', () => this.goLive());
    this.controls.set('end', () => this.end());
    this.controls.set('post', (b) =>
      this.post(String(b.displayName ?? 'Viewer'), String(b.text ?? ''), b.id === undefined ? undefined : String(b.id), undefined, chatOf(b)?.id),
    );
    this.controls.set('inserted', () => this.inserted);
    this.controls.set('live', (b) => {
      const chat = chatOf(b);
      return chat !== null && chat.offlineAt === null;
    });
    this.controls.set('post-event', (b) =>
      this.postEvent(
        String(b.displayName ?? 'Viewer'),
        String(b.eventType),
        (b.details ?? {}) as Record<string, unknown>,
        String(b.displayMessage ?? ''),
        chatOf(b)?.id,
      ),
    );
    this.controls.set('polling', (b) => {
      this.pollingIntervalMillis = Number(b.ms ?? 500);
    });
  }

  /** The live chat started last. */
  get liveChatId(): string | null {
    return this.latest?.id ?? null;
  }

  get broadcastId(): string | null {
    return this.latest?.broadcastId ?? null;
  }

  get offlineAt(): string | null {
    return this.latest?.offlineAt ?? null;
  }

  /** A new live chat, on `channelId`'s broadcast (test mode) or the double's owner's. */
  goLive(channelId: string | null = null, broadcastId = `bcast-${randomBytes(4).toString('hex')}`): string {
    const chat: LiveChat = { id: `chat-${randomBytes(6).toString('hex')}`, broadcastId, channelId, offlineAt: null };
    this.chats.set(chat.id, chat);
    this.latest = chat;
    return chat.id;
  }

  end(): void {
    if (this.latest) this.latest.offlineAt = new Date().toISOString();
  }

  /** The live chat a channel started last. */
  chatOfChannel(channelId: string): LiveChat | null {
    return [...this.chats.values()].filter((c) => c.channelId === channelId).at(-1) ?? null;
  }

  private ownerOfChat(chat: LiveChat): string {
    return chat.channelId ?? this.owner.channelId;
  }

  post(displayName: string, text: string, id?: string, channelId?: string, liveChatId = this.liveChatId): string {
    const chat = liveChatId ? this.chats.get(liveChatId) : undefined;
    if (!chat) throw new Error('the YouTube double is not live');
    const author = channelId ?? `UC${Buffer.from(displayName).toString('hex').slice(0, 22).padEnd(22, '0')}`;
    const item: YouTubeChatItem = {
      kind: 'youtube#liveChatMessage',
      id: id ?? `LCC.${randomBytes(12).toString('base64url')}`,
      snippet: {
        type: 'textMessageEvent',
        liveChatId: chat.id,
        authorChannelId: author,
        publishedAt: new Date().toISOString(),
        hasDisplayContent: true,
        displayMessage: text,
        textMessageDetails: { messageText: text },
      },
      authorDetails: {
        channelId: author,
        channelUrl: `http://www.youtube.com/channel/${author}`,
        displayName,
        profileImageUrl: `${this.url}/avatars/${encodeURIComponent(author)}.png`,
        isVerified: false,
        isChatOwner: author === this.ownerOfChat(chat),
        isChatSponsor: false,
        isChatModerator: false,
      },
    };
    this.items.push(item);
    return item.id;
  }

  /**
   * A Super Chat, Super Sticker or membership item (`superChatEvent` with `superChatDetails`,
   * `superStickerEvent` with `superStickerDetails`, `newSponsorEvent` with `newSponsorDetails`,
   * `memberMilestoneChatEvent` with `memberMilestoneChatDetails`, `membershipGiftingEvent`…), as
   * the live chat lists it among the messages.
   */
  postEvent(displayName: string, eventType: string, details: Record<string, unknown>, displayMessage = '', liveChatId = this.liveChatId): string {
    const id = this.post(displayName, displayMessage, undefined, undefined, liveChatId);
    const item = this.items.find((i) => i.id === id)!;
    const { textMessageDetails: _text, ...snippet } = item.snippet;
    item.snippet = { ...snippet, type: eventType, ...details };
    return id;
  }

  async start(port = 0): Promise<this> {
    await this.listen((r) => {
      const base = '/youtube/v3';
      if (r.method === 'POST' && r.path === '/token') {
        const tokens = this.refresh(r.body as Record<string, string>);
        if (!tokens) return json(r.res, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
        // Google hands out a refresh token with the code of an offline-access consent, not with a refresh.
        const form = r.body as Record<string, string>;
        return json(r.res, 200, {
          access_token: tokens.accessToken,
          expires_in: 3599,
          ...(form.code ? { refresh_token: tokens.refreshToken } : {}),
          scope: 'https://www.googleapis.com/auth/youtube',
          token_type: 'Bearer',
        });
      }
      if (r.path.startsWith('/avatars/')) {
        r.res.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL);
        return;
      }
      if (!r.path.startsWith(base)) return json(r.res, 404, googleError(404, 'Not Found', 'notFound'));
      this.record(r);
      const failure = this.takeFailure(r.method);
      if (failure !== null)
        return json(
          r.res,
          failure,
          googleError(failure, failure === 429 ? 'Rate limit exceeded' : 'Backend Error', failure === 429 ? 'rateLimitExceeded' : 'backendError'),
        );
      if (!r.token || !this.access.has(r.token)) return json(r.res, 401, googleError(401, 'Request had invalid authentication credentials.', 'authError'));
      const path = r.path.slice(base.length);
      if (this.ingest && testModeRoute(this, r.method, path, r.query, r.body, r.token, r.res)) return;
      if (r.method === 'GET' && path === '/liveBroadcasts') {
        if (r.query.get('broadcastStatus') !== 'active' || !(r.query.get('part') ?? '').includes('snippet'))
          return json(r.res, 400, googleError(400, 'Missing broadcastStatus or part', 'required'));
        // The broadcast of the channel behind the token (a test-mode sign-in); a token of nobody sees the one started last.
        const owner = this.ownerOf(r.token);
        const chat = owner ? this.chatOfChannel(owner.id) : this.latest;
        const live = chat !== null && !chat.offlineAt;
        return json(r.res, 200, {
          kind: 'youtube#liveBroadcastListResponse',
          items: live
            ? [
                {
                  kind: 'youtube#liveBroadcast',
                  id: chat.broadcastId,
                  snippet: { title: 'Live on OnAir', liveChatId: chat.id, actualStartTime: new Date().toISOString() },
                  status: { lifeCycleStatus: 'live' },
                },
              ]
            : [],
          pageInfo: { totalResults: live ? 1 : 0, resultsPerPage: 5 },
        });
      }
      if (path === '/liveChat/messages') {
        // list names the chat in the query, insert in the body's snippet.
        const chatId = r.method === 'POST' ? (r.body as { snippet?: { liveChatId?: string } } | undefined)?.snippet?.liveChatId : r.query.get('liveChatId');
        const chat = chatId ? this.chats.get(chatId) : undefined;
        if (!chat) return json(r.res, 404, googleError(404, 'The live chat that you are trying to retrieve cannot be found.', 'liveChatNotFound'));
        if (r.method === 'GET') {
          const max = Math.min(Number(r.query.get('maxResults') ?? 500), 2000);
          const from = Number(r.query.get('pageToken') ?? '0') || 0;
          const page = this.items.filter((i) => i.snippet.liveChatId === chat.id).slice(from, from + max);
          return json(r.res, 200, {
            kind: 'youtube#liveChatMessageListResponse',
            pollingIntervalMillis: this.pollingIntervalMillis,
            nextPageToken: String(from + page.length),
            pageInfo: { totalResults: page.length, resultsPerPage: max },
            items: page,
            ...(chat.offlineAt ? { offlineAt: chat.offlineAt } : {}),
          });
        }
        if (r.method === 'POST') {
          if (chat.offlineAt) return json(r.res, 403, googleError(403, 'The live chat is no longer live.', 'liveChatEnded'));
          const body = r.body as { snippet?: { liveChatId?: string; type?: string; textMessageDetails?: { messageText?: string } } };
          const text = body.snippet?.textMessageDetails?.messageText ?? '';
          if (body.snippet?.type !== 'textMessageEvent' || text.length === 0 || text.length > 200) {
            return json(r.res, 400, googleError(400, 'The message is not valid.', 'invalidValue'));
          }
          // Said as the chat's channel (the signed-in account's name in test mode).
          const author = this.ownerOf(r.token);
          const name = author && author.id === chat.channelId ? author.displayName : this.owner.displayName;
          const id = this.post(name, text, undefined, this.ownerOfChat(chat), chat.id);
          this.inserted.push({ id, text });
          return json(
            r.res,
            200,
            this.items.find((i) => i.id === id),
          );
        }
      }
      json(r.res, 404, googleError(404, `no route ${r.method} ${r.path}`, 'notFound'));
    }, port);
    return this;
  }
}

/**
 * The Data API calls of connecting and going live, in test mode: the signed-in channel
 * (channels?mine=true), a reusable liveStream whose ingest is this machine's RTMP server, a
 * liveBroadcast with the creator's title, description and privacy, and its binding, which starts
 * the live chat (the broadcast starts by itself, as enableAutoStart asks).
 */
function testModeRoute(
  d: YouTubeChatDouble,
  method: string,
  path: string,
  query: URLSearchParams,
  body: unknown,
  token: string | null,
  res: ServerResponse,
): boolean {
  const ingest = d.ingest!;
  if (method === 'GET' && path === '/channels' && query.get('mine') === 'true') {
    const owner = d.ownerOf(token);
    const channel = owner ? { channelId: owner.id, displayName: owner.displayName } : d.owner;
    json(res, 200, {
      kind: 'youtube#channelListResponse',
      items: [
        {
          kind: 'youtube#channel',
          id: channel.channelId,
          snippet: { title: channel.displayName, thumbnails: { default: { url: `${d.url}/avatars/${channel.channelId}.png` } } },
        },
      ],
    });
    return true;
  }
  if (method === 'POST' && path === '/liveStreams') {
    const b = (body ?? {}) as { snippet?: { title?: string }; cdn?: { ingestionType?: string } };
    if (!b.snippet?.title || b.cdn?.ingestionType !== 'rtmp') {
      json(res, 400, googleError(400, 'Required parameter: snippet.title and cdn.ingestionType', 'required'));
      return true;
    }
    const id = `stream-${randomBytes(4).toString('hex')}`;
    d.streamIds.add(id);
    json(res, 200, {
      kind: 'youtube#liveStream',
      id,
      snippet: b.snippet,
      // The channel's own stream name, as YouTube gives each channel's liveStream its own.
      cdn: { ...b.cdn, ingestionInfo: { ingestionAddress: ingest.rtmpUrl, streamName: ingest.keys.keyOf(d.ownerOf(token)?.id ?? d.owner.channelId) } },
      status: { streamStatus: 'ready' },
    });
    return true;
  }
  if (method === 'POST' && path === '/liveBroadcasts') {
    const b = (body ?? {}) as { snippet?: { title?: string; description?: string }; status?: { privacyStatus?: string } };
    const title = b.snippet?.title ?? '';
    if (title === '' || title.length > 100) {
      json(res, 400, googleError(400, 'The broadcast title is invalid.', 'invalidTitle'));
      return true;
    }
    const broadcast = {
      id: `bcast-${randomBytes(4).toString('hex')}`,
      title,
      description: b.snippet?.description ?? '',
      privacyStatus: b.status?.privacyStatus ?? 'private',
    };
    d.broadcasts.push(broadcast);
    json(res, 200, {
      kind: 'youtube#liveBroadcast',
      id: broadcast.id,
      snippet: { title, description: broadcast.description },
      status: { privacyStatus: broadcast.privacyStatus, lifeCycleStatus: 'created' },
    });
    return true;
  }
  if (method === 'POST' && path === '/liveBroadcasts/bind') {
    const broadcast = d.broadcasts.find((x) => x.id === query.get('id'));
    if (!broadcast || !d.streamIds.has(query.get('streamId') ?? '')) {
      json(res, 404, googleError(404, 'Broadcast or stream not found', 'liveBroadcastNotFound'));
      return true;
    }
    // The live chat of this channel's broadcast: another channel's live chat is another one.
    d.goLive(d.ownerOf(token)?.id ?? null, broadcast.id);
    json(res, 200, {
      kind: 'youtube#liveBroadcast',
      id: broadcast.id,
      contentDetails: { boundStreamId: query.get('streamId') },
      status: { lifeCycleStatus: 'ready' },
    });
    return true;
  }
  return false;
}

/** A 1×1 PNG for avatars. */
export const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

export async function startYouTubeChatDouble(port = 0): Promise<YouTubeChatDouble> {
  return new YouTubeChatDouble().start(port);
}
