// Twitch as OnAir sees it: id.twitch.tv OAuth, Helix (users, streams/key, channels) and the
// ingest list, in Twitch's own shapes. Helix calls must carry Client-Id, as Twitch requires.
import { startPlatformDouble, type PlatformDouble } from './platform-double.ts';

export const TWITCH_USER = {
  id: '141981764',
  login: 'ada',
  display_name: 'Ada',
  profile_image_url: 'https://static-cdn.jtvnw.net/ada.png',
  email: 'ada@example.test',
};
export const TWITCH_STREAM_KEY = 'live_141981764_TwItChSeCrEtKeY';

/** What Helix reports of a channel now (followers, subscribers, live viewers); tests change it. */
export interface TwitchChannelNow {
  followers: number;
  /** null: the token lacks channel:read:subscriptions (Helix answers 401). */
  subscribers: number | null;
  /** null: offline. */
  viewers: number | null;
}

/** What the chatbot did through Helix (issue 22): messages sent, removed, bans and timeouts, chat settings. */
export interface TwitchChatActions {
  messages: { id: string; broadcasterId: string; senderId: string; text: string; at: number }[];
  deleted: { broadcasterId: string; moderatorId: string; messageId: string }[];
  bans: { broadcasterId: string; userId: string; duration: number | null; reason: string }[];
  chatSettings: Record<string, unknown>[];
  /** Every Helix chat and moderation call answered (429s included), in order, with when it arrived: tests count them. */
  calls: { method: string; path: string; status: number; at: number }[];
}

export interface TwitchDouble extends PlatformDouble {
  /** The channel title as last set through Helix. */
  channelTitle: string | null;
  /** Channels by broadcaster id, as Helix's followers, subscriptions and streams report them. */
  channels: Map<string, TwitchChannelNow>;
  /** Answers the next Helix calls with 429 (Twitch's rate limit) while set. */
  rateLimited: boolean;
  /** The game GET /helix/channels reports. */
  gameName: string;
  chat: TwitchChatActions;
  /** Accounts that are moderators of every channel here (the bot must be one to moderate). */
  moderators: Set<string>;
  /** Helix points per minute of a token (Twitch gives 800); each call costs one. */
  rateLimitPerMinute: number;
  /** The next this-many Helix calls are refused with 429, as when the bucket is empty. */
  forceRateLimited: number;
  /**
   * Who is in each channel's chat now (GET /helix/chat/chatters), by broadcaster id. Twitch needs
   * moderator:read:chatters and moderator_id a moderator of the channel.
   */
  chatters: Map<string, { user_id: string; user_login: string; user_name: string }[]>;
  /** The token lacks moderator:read:chatters: GET /helix/chat/chatters answers 401 as Twitch does. */
  chattersScopeMissing: boolean;
  /** Called for each chat message sent through Helix (tests hand it to the IRC chat double). */
  onChatMessage: ((broadcasterId: string, senderId: string, text: string) => void) | null;
  env(): Record<string, string>;
}

export async function startTwitchDouble(): Promise<TwitchDouble> {
  const state = { channelTitle: null as string | null };
  const channels = new Map<string, TwitchChannelNow>();
  const limits = { rateLimited: false };
  const chat: TwitchChatActions = { messages: [], deleted: [], bans: [], chatSettings: [], calls: [] };
  const moderators = new Set<string>();
  const chatters = new Map<string, { user_id: string; user_login: string; user_name: string }[]>();
  const scopes = { chattersMissing: false };
  const bucket = { perMinute: 800, forced: 0, window: 0, used: 0 };
  let onChatMessage: TwitchDouble['onChatMessage'] = null;
  let gameName = 'Just Chatting';
  let messageSeq = 0;
  /** Twitch's token bucket, as its headers tell it: Ratelimit-Limit, -Remaining, -Reset (epoch seconds). */
  const rateLimit = (): { refused: boolean; headers: Record<string, string> } => {
    const now = Date.now();
    if (now >= bucket.window) {
      bucket.window = now + 60_000;
      bucket.used = 0;
    }
    let refused = false;
    if (bucket.forced > 0) {
      bucket.forced -= 1;
      refused = true;
    } else if (bucket.used >= bucket.perMinute) refused = true;
    else bucket.used += 1;
    // A forced refusal clears within a second; an empty bucket at the end of its minute.
    const reset = refused && bucket.used < bucket.perMinute ? now + 1000 : bucket.window;
    return {
      refused,
      headers: {
        'ratelimit-limit': String(bucket.perMinute),
        'ratelimit-remaining': String(refused ? 0 : bucket.perMinute - bucket.used),
        'ratelimit-reset': String(Math.ceil(reset / 1000)),
      },
    };
  };
  const moderating = (query: Record<string, string>) =>
    !query.broadcaster_id || !query.moderator_id
      ? { status: 400, body: { error: 'Bad Request', status: 400, message: 'Missing required parameter "broadcaster_id" or "moderator_id"' } }
      : query.moderator_id !== query.broadcaster_id && !moderators.has(query.moderator_id)
        ? { status: 403, body: { error: 'Forbidden', status: 403, message: "The user in moderator_id is not one of the broadcaster's moderators" } }
        : null;
  const double = await startPlatformDouble(
    'twitch',
    {
      authorizePath: '/oauth2/authorize',
      tokenPath: '/oauth2/token',
      tokenAnswer: (a, r) => ({
        access_token: a,
        refresh_token: r,
        expires_in: 14_400,
        scope: ['channel:read:stream_key', 'channel:manage:broadcast'],
        token_type: 'bearer',
      }),
      grantError: (message) => ({ status: 400, message }),
      unauthorized: () => ({ error: 'Unauthorized', status: 401, message: 'Invalid OAuth token' }),
      refreshTokens: true,
    },
    (d) => (req) => {
      if (req.path !== '/ingests' && req.headers['client-id'] !== d.clientId)
        return { status: 401, body: { error: 'Unauthorized', status: 401, message: 'Client ID and OAuth token do not match' } };
      if (req.path.startsWith('/helix/chat') || req.path.startsWith('/helix/moderation') || (req.method === 'GET' && req.path === '/helix/channels')) {
        const limit = rateLimit();
        const reply = (r: { status: number; body?: unknown }) => {
          chat.calls.push({ method: req.method, path: req.path, status: r.status, at: Date.now() });
          return { ...r, headers: limit.headers };
        };
        if (limit.refused) return reply({ status: 429, body: { error: 'Too Many Requests', status: 429, message: 'Too Many Requests' } });
        if (req.method === 'GET' && req.path === '/helix/channels') {
          return reply({
            status: 200,
            body: {
              data: [
                {
                  broadcaster_id: req.query.broadcaster_id,
                  broadcaster_login: 'ada',
                  broadcaster_name: 'Ada',
                  broadcaster_language: 'en',
                  game_id: '509658',
                  game_name: gameName,
                  title: state.channelTitle ?? '',
                  delay: 0,
                  tags: [],
                },
              ],
            },
          });
        }
        if (req.method === 'GET' && req.path === '/helix/chat/chatters') {
          if (scopes.chattersMissing)
            return reply({ status: 401, body: { error: 'Unauthorized', status: 401, message: 'Missing scope: moderator:read:chatters' } });
          const refused = moderating(req.query);
          if (refused) return reply(refused);
          const all = chatters.get(req.query.broadcaster_id!) ?? [];
          const first = Number(req.query.first ?? 100);
          if (!Number.isInteger(first) || first < 1 || first > 1000)
            return reply({ status: 400, body: { error: 'Bad Request', status: 400, message: 'The value in the first field is not valid' } });
          // Twitch's cursor is opaque; here it is the offset, base64-encoded.
          const from = req.query.after ? Number(Buffer.from(req.query.after, 'base64').toString()) : 0;
          const page = all.slice(from, from + first);
          const next = from + first < all.length ? Buffer.from(String(from + first)).toString('base64') : undefined;
          return reply({ status: 200, body: { data: page, pagination: next ? { cursor: next } : {}, total: all.length } });
        }
        if (req.method === 'POST' && req.path === '/helix/chat/messages') {
          const b = req.body as { broadcaster_id?: string; sender_id?: string; message?: string };
          if (!b?.broadcaster_id || !b.sender_id || typeof b.message !== 'string' || b.message === '')
            return reply({ status: 400, body: { error: 'Bad Request', status: 400, message: 'Missing required fields' } });
          if (b.message.length > 500) return reply({ status: 400, body: { error: 'Bad Request', status: 400, message: 'The message is too long' } });
          const id = `msg-${++messageSeq}`;
          chat.messages.push({ id, broadcasterId: b.broadcaster_id, senderId: b.sender_id, text: b.message, at: Date.now() });
          onChatMessage?.(b.broadcaster_id, b.sender_id, b.message);
          return reply({ status: 200, body: { data: [{ message_id: id, is_sent: true, drop_reason: null }] } });
        }
        if (req.method === 'DELETE' && req.path === '/helix/moderation/chat') {
          const refused = moderating(req.query);
          if (refused) return reply(refused);
          chat.deleted.push({ broadcasterId: req.query.broadcaster_id!, moderatorId: req.query.moderator_id!, messageId: req.query.message_id ?? '' });
          return reply({ status: 204 });
        }
        if (req.method === 'POST' && req.path === '/helix/moderation/bans') {
          const refused = moderating(req.query);
          if (refused) return reply(refused);
          const d = (req.body as { data?: { user_id?: string; duration?: number; reason?: string } })?.data;
          if (!d?.user_id) return reply({ status: 400, body: { error: 'Bad Request', status: 400, message: 'Missing required field "user_id"' } });
          if (d.duration !== undefined && (!Number.isInteger(d.duration) || d.duration < 1 || d.duration > 1_209_600)) {
            return reply({ status: 400, body: { error: 'Bad Request', status: 400, message: 'The value in the duration field is not valid' } });
          }
          chat.bans.push({ broadcasterId: req.query.broadcaster_id!, userId: d.user_id, duration: d.duration ?? null, reason: d.reason ?? '' });
          const end = d.duration === undefined ? null : new Date(Date.now() + d.duration * 1000).toISOString();
          return reply({
            status: 200,
            body: {
              data: [
                {
                  broadcaster_id: req.query.broadcaster_id,
                  moderator_id: req.query.moderator_id,
                  user_id: d.user_id,
                  created_at: new Date().toISOString(),
                  end_time: end,
                },
              ],
            },
          });
        }
        if (req.method === 'PATCH' && req.path === '/helix/chat/settings') {
          const refused = moderating(req.query);
          if (refused) return reply(refused);
          chat.chatSettings.push(req.body as Record<string, unknown>);
          return reply({ status: 200, body: { data: [{ broadcaster_id: req.query.broadcaster_id, ...(req.body as object) }] } });
        }
        return reply({ status: 404, body: { error: 'Not Found', status: 404, message: `no route ${req.method} ${req.path}` } });
      }
      if (limits.rateLimited && req.path.startsWith('/helix/'))
        return { status: 429, body: { error: 'Too Many Requests', status: 429, message: 'Rate limit exceeded' } };
      const channel = channels.get(req.query.broadcaster_id ?? req.query.user_id ?? '');
      if (req.method === 'GET' && req.path === '/helix/channels/followers')
        return { status: 200, body: { total: channel?.followers ?? 0, data: [], pagination: {} } };
      if (req.method === 'GET' && req.path === '/helix/subscriptions') {
        if (channel?.subscribers === null)
          return { status: 401, body: { error: 'Unauthorized', status: 401, message: 'Missing scope: channel:read:subscriptions' } };
        return { status: 200, body: { total: channel?.subscribers ?? 0, points: 0, data: [], pagination: {} } };
      }
      if (req.method === 'GET' && req.path === '/helix/streams') {
        const live = channel?.viewers !== null && channel?.viewers !== undefined;
        return {
          status: 200,
          body: {
            data: live ? [{ id: '1', user_id: req.query.user_id, type: 'live', viewer_count: channel!.viewers, started_at: '2026-11-25T10:00:00Z' }] : [],
            pagination: {},
          },
        };
      }
      if (req.method === 'GET' && req.path === '/helix/users')
        return { status: 200, body: { data: [{ ...TWITCH_USER, type: '', broadcaster_type: '', description: '', created_at: '2016-12-14T20:32:28Z' }] } };
      if (req.method === 'GET' && req.path === '/helix/streams/key') {
        if (req.query.broadcaster_id !== TWITCH_USER.id)
          return { status: 403, body: { error: 'Forbidden', status: 403, message: 'broadcaster_id does not match the token' } };
        return { status: 200, body: { data: [{ stream_key: TWITCH_STREAM_KEY }] } };
      }
      if (req.method === 'PATCH' && req.path === '/helix/channels') {
        const title = (req.body as { title?: string }).title;
        if (typeof title !== 'string' || title.trim() === '')
          return { status: 400, body: { error: 'Bad Request', status: 400, message: 'The title field may not be empty' } };
        state.channelTitle = title;
        return { status: 204 };
      }
      if (req.method === 'GET' && req.path === '/ingests') {
        return {
          status: 200,
          body: {
            _total: 2,
            ingests: [
              {
                _id: 24,
                availability: 1,
                default: false,
                name: 'US West: San Francisco',
                priority: 2,
                url_template: 'rtmp://sfo.contribute.live-video.net/app/{stream_key}',
              },
              { _id: 1, availability: 1, default: true, name: 'Default', priority: 1, url_template: 'rtmp://live.twitch.tv/app/{stream_key}' },
            ],
          },
        };
      }
      return null;
    },
  );
  // A getter, not a copied value: the title changes after the double is handed out.
  Object.defineProperty(double, 'channelTitle', { get: () => state.channelTitle });
  Object.defineProperty(double, 'rateLimited', { get: () => limits.rateLimited, set: (on: boolean) => (limits.rateLimited = on) });
  Object.defineProperty(double, 'gameName', { get: () => gameName, set: (v: string) => (gameName = v) });
  Object.defineProperty(double, 'rateLimitPerMinute', { get: () => bucket.perMinute, set: (v: number) => (bucket.perMinute = v) });
  Object.defineProperty(double, 'forceRateLimited', { get: () => bucket.forced, set: (v: number) => (bucket.forced = v) });
  Object.defineProperty(double, 'chattersScopeMissing', { get: () => scopes.chattersMissing, set: (v: boolean) => (scopes.chattersMissing = v) });
  Object.defineProperty(double, 'onChatMessage', { get: () => onChatMessage, set: (v: TwitchDouble['onChatMessage']) => (onChatMessage = v) });
  return Object.assign(
    double as PlatformDouble & { readonly channelTitle: string | null; rateLimited: boolean } & Pick<
        TwitchDouble,
        'gameName' | 'rateLimitPerMinute' | 'forceRateLimited' | 'onChatMessage' | 'chattersScopeMissing'
      >,
    {
      channels,
      chatters,
      chat,
      moderators,
      env: () => ({
        TWITCH_CLIENT_ID: double.clientId,
        TWITCH_CLIENT_SECRET: double.clientSecret,
        TWITCH_AUTHORIZATION_URL: `${double.url}/oauth2/authorize`,
        TWITCH_TOKEN_URL: `${double.url}/oauth2/token`,
        TWITCH_API_URL: `${double.url}/helix`,
        TWITCH_INGEST_URL: `${double.url}/ingests`,
      }),
    },
  );
}
