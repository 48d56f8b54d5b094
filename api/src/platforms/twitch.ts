import { exchangeAuthorizationCode, refreshAccessToken } from './oauth-token.ts';
import type { OAuthClientConfig, Platform } from './platform.ts';
import { platformCall, PlatformCallError } from './platform-http.ts';

import { TWITCH_EVENT_SCOPES } from './twitch-eventsub.ts';

// The events feed reads the channel's follows, subs, cheers and charity donations with the same login.
const SCOPES = ['channel:read:stream_key', 'channel:manage:broadcast', 'user:read:email', ...TWITCH_EVENT_SCOPES];

/** Twitch: OAuth at id.twitch.tv, Helix for the account, stream key and channel title, and the ingest list. */
export function twitchPlatform(client: OAuthClientConfig, urls: { api: string; ingests: string }): Platform {
  const helix = (path: string, token: string, init: { method?: string; json?: unknown } = {}) =>
    platformCall(`${urls.api}${path}`, { ...init, token, headers: { 'client-id': client.clientId } });
  return {
    provider: 'twitch',
    label: 'Twitch',
    authorizeUrl(state, redirectUri) {
      const u = new URL(client.authorizationUrl);
      u.search = new URLSearchParams({
        client_id: client.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: SCOPES.join(' '),
        state,
        force_verify: 'true',
      }).toString();
      return u.toString();
    },
    exchangeCode: (code, redirectUri) => exchangeAuthorizationCode(client, code, redirectUri),
    refresh: ({ refreshToken }) => refreshAccessToken(client, refreshToken),
    async account(accessToken) {
      const answer = (await helix('/users', accessToken)) as { data: { id: string; login: string; display_name: string; profile_image_url?: string }[] };
      const user = answer.data[0];
      if (!user) throw new PlatformCallError(404, 'no user behind the token');
      return {
        id: user.id,
        username: user.display_name || user.login,
        logo: user.profile_image_url ?? null,
        dashboardUrl: `https://dashboard.twitch.tv/u/${user.login}`,
      };
    },
    async connect(destination) {
      const keyAnswer = (await helix(`/streams/key?broadcaster_id=${encodeURIComponent(destination.accountId)}`, destination.accessToken)) as {
        data: { stream_key: string }[];
      };
      const streamKey = keyAnswer.data[0]?.stream_key;
      if (!streamKey) throw new PlatformCallError(404, 'no stream key');
      const list = await platformCall<{ ingests: { url_template: string; default?: boolean; priority?: number }[] }>(urls.ingests);
      const ingest = list.ingests.find((i) => i.default) ?? list.ingests[0];
      if (!ingest) throw new PlatformCallError(503, 'no ingest server');
      return { rtmpUrl: ingest.url_template.replace(/\/\{stream_key\}$/, ''), streamKey, platformStreamId: null };
    },
    async prepareBroadcast(destination) {
      // Twitch has no broadcast object: a channel goes live when it receives a stream; the title is the channel's.
      await helix(`/channels?broadcaster_id=${encodeURIComponent(destination.accountId)}`, destination.accessToken, {
        method: 'PATCH',
        json: { title: destination.settings.title ?? '' },
      });
      return { platformBroadcastId: null, ingest: null };
    },
  };
}
