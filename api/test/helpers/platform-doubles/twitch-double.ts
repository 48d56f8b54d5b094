// Twitch as OnAir sees it: id.twitch.tv OAuth, Helix (users, streams/key, channels) and the
// ingest list, in Twitch's own shapes. Helix calls must carry Client-Id, as Twitch requires.
import { startPlatformDouble, type PlatformDouble } from './platform-double.ts';

export const TWITCH_USER = { id: '141981764', login: 'ada', display_name: 'Ada', profile_image_url: 'https://static-cdn.jtvnw.net/ada.png', email: 'ada@example.test' };
export const TWITCH_STREAM_KEY = 'live_141981764_TwItChSeCrEtKeY';

/** What Helix reports of a channel now (followers, subscribers, live viewers); tests change it. */
export interface TwitchChannelNow {
  followers: number;
  /** null: the token lacks channel:read:subscriptions (Helix answers 401). */
  subscribers: number | null;
  /** null: offline. */
  viewers: number | null;
}

export interface TwitchDouble extends PlatformDouble {
  /** The channel title as last set through Helix. */
  channelTitle: string | null;
  /** Channels by broadcaster id, as Helix's followers, subscriptions and streams report them. */
  channels: Map<string, TwitchChannelNow>;
  /** Answers the next Helix calls with 429 (Twitch's rate limit) while set. */
  rateLimited: boolean;
  env(): Record<string, string>;
}

export async function startTwitchDouble(): Promise<TwitchDouble> {
  const state = { channelTitle: null as string | null };
  const channels = new Map<string, TwitchChannelNow>();
  const limits = { rateLimited: false };
  const double = await startPlatformDouble(
    'twitch',
    {
      authorizePath: '/oauth2/authorize',
      tokenPath: '/oauth2/token',
      tokenAnswer: (a, r) => ({ access_token: a, refresh_token: r, expires_in: 14_400, scope: ['channel:read:stream_key', 'channel:manage:broadcast'], token_type: 'bearer' }),
      grantError: (message) => ({ status: 400, message }),
      unauthorized: () => ({ error: 'Unauthorized', status: 401, message: 'Invalid OAuth token' }),
      refreshTokens: true,
    },
    (d) => (req) => {
      if (req.path !== '/ingests' && req.headers['client-id'] !== d.clientId) return { status: 401, body: { error: 'Unauthorized', status: 401, message: 'Client ID and OAuth token do not match' } };
      if (limits.rateLimited && req.path.startsWith('/helix/')) return { status: 429, body: { error: 'Too Many Requests', status: 429, message: 'Rate limit exceeded' } };
      const channel = channels.get(req.query.broadcaster_id ?? req.query.user_id ?? '');
      if (req.method === 'GET' && req.path === '/helix/channels/followers') return { status: 200, body: { total: channel?.followers ?? 0, data: [], pagination: {} } };
      if (req.method === 'GET' && req.path === '/helix/subscriptions') {
        if (channel?.subscribers === null) return { status: 401, body: { error: 'Unauthorized', status: 401, message: 'Missing scope: channel:read:subscriptions' } };
        return { status: 200, body: { total: channel?.subscribers ?? 0, points: 0, data: [], pagination: {} } };
      }
      if (req.method === 'GET' && req.path === '/helix/streams') {
        const live = channel?.viewers !== null && channel?.viewers !== undefined;
        return { status: 200, body: { data: live ? [{ id: '1', user_id: req.query.user_id, type: 'live', viewer_count: channel!.viewers, started_at: '2026-11-25T10:00:00Z' }] : [], pagination: {} } };
      }
      if (req.method === 'GET' && req.path === '/helix/users') return { status: 200, body: { data: [{ ...TWITCH_USER, type: '', broadcaster_type: '', description: '', created_at: '2016-12-14T20:32:28Z' }] } };
      if (req.method === 'GET' && req.path === '/helix/streams/key') {
        if (req.query.broadcaster_id !== TWITCH_USER.id) return { status: 403, body: { error: 'Forbidden', status: 403, message: 'broadcaster_id does not match the token' } };
        return { status: 200, body: { data: [{ stream_key: TWITCH_STREAM_KEY }] } };
      }
      if (req.method === 'PATCH' && req.path === '/helix/channels') {
        const title = (req.body as { title?: string }).title;
        if (typeof title !== 'string' || title.trim() === '') return { status: 400, body: { error: 'Bad Request', status: 400, message: 'The title field may not be empty' } };
        state.channelTitle = title;
        return { status: 204 };
      }
      if (req.method === 'GET' && req.path === '/ingests') {
        return {
          status: 200,
          body: { _total: 2, ingests: [
            { _id: 24, availability: 1, default: false, name: 'US West: San Francisco', priority: 2, url_template: 'rtmp://sfo.contribute.live-video.net/app/{stream_key}' },
            { _id: 1, availability: 1, default: true, name: 'Default', priority: 1, url_template: 'rtmp://live.twitch.tv/app/{stream_key}' },
          ] },
        };
      }
      return null;
    },
  );
  // A getter, not a copied value: the title changes after the double is handed out.
  Object.defineProperty(double, 'channelTitle', { get: () => state.channelTitle });
  Object.defineProperty(double, 'rateLimited', { get: () => limits.rateLimited, set: (on: boolean) => (limits.rateLimited = on) });
  return Object.assign(double as PlatformDouble & { readonly channelTitle: string | null; rateLimited: boolean }, {
    channels,
    env: () => ({
      TWITCH_CLIENT_ID: double.clientId,
      TWITCH_CLIENT_SECRET: double.clientSecret,
      TWITCH_AUTHORIZATION_URL: `${double.url}/oauth2/authorize`,
      TWITCH_TOKEN_URL: `${double.url}/oauth2/token`,
      TWITCH_API_URL: `${double.url}/helix`,
      TWITCH_INGEST_URL: `${double.url}/ingests`,
    }),
  });
}
