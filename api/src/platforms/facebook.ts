import type { StreamTarget } from '@onair/protocol';
import { expiryOf, type OAuthClientConfig, type Platform, type PlatformTokens } from './platform.ts';
import { platformCall, PlatformCallError, splitPublishUrl } from './platform-http.ts';

interface TokenAnswer {
  access_token: string;
  expires_in?: number;
}

const SCOPES = ['publish_video', 'pages_show_list', 'pages_read_engagement', 'pages_manage_posts', 'publish_to_groups'];

function tokens(answer: TokenAnswer): PlatformTokens {
  // Facebook has no refresh token: a long-lived user token is exchanged for a new one while valid.
  return { accessToken: answer.access_token, refreshToken: null, expiresAt: expiryOf(answer.expires_in) };
}

type Named = { data?: { id: string; name: string }[] };

/**
 * Facebook: Graph API v15.0 (spec §9). A live video is created on the chosen target (the user's
 * timeline, a page, a group or an event) for every go-live, with title, description and, on the
 * timeline, privacy; its RTMPS URL carries the stream key as the last path segment.
 */
export function facebookPlatform(client: OAuthClientConfig, urls: { graph: string }): Platform {
  const graph = urls.graph;
  return {
    provider: 'facebook',
    label: 'Facebook',
    authorizeUrl(state, redirectUri) {
      const u = new URL(client.authorizationUrl);
      u.search = new URLSearchParams({
        client_id: client.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: SCOPES.join(','),
        state,
      }).toString();
      return u.toString();
    },
    async exchangeCode(code, redirectUri) {
      return tokens(
        await platformCall<TokenAnswer>(client.tokenUrl, {
          form: { client_id: client.clientId, client_secret: client.clientSecret, code, redirect_uri: redirectUri },
        }),
      );
    },
    async refresh({ accessToken }) {
      return tokens(
        await platformCall<TokenAnswer>(client.tokenUrl, {
          form: { grant_type: 'fb_exchange_token', client_id: client.clientId, client_secret: client.clientSecret, fb_exchange_token: accessToken },
        }),
      );
    },
    async account(accessToken) {
      const me = await platformCall<{ id: string; name: string; picture?: { data?: { url?: string } } }>(`${graph}/me?fields=id,name,picture`, {
        token: accessToken,
      });
      return { id: me.id, username: me.name, logo: me.picture?.data?.url ?? null, dashboardUrl: 'https://www.facebook.com/live/producer' };
    },
    async connect() {
      return null;
    },
    async streamTargets(destination) {
      const token = destination.accessToken;
      const [pages, groups, events] = await Promise.all([
        platformCall<Named>(`${graph}/me/accounts?fields=id,name`, { token }),
        platformCall<Named>(`${graph}/me/groups?fields=id,name`, { token }),
        platformCall<Named>(`${graph}/me/events?fields=id,name`, { token }),
      ]);
      const of = (list: Named, type: StreamTarget['type']) => (list.data ?? []).map((x) => ({ id: x.id, name: x.name, type }));
      return [{ id: destination.accountId, name: 'Timeline', type: 'timeline' as const }, ...of(pages, 'page'), ...of(groups, 'group'), ...of(events, 'event')];
    },
    async prepareBroadcast(destination) {
      const target = destination.settings.streamDestination ?? { id: destination.accountId, name: 'Timeline', type: 'timeline' as const };
      let token = destination.accessToken;
      if (target.type === 'page') {
        // A page goes live with the page's own token, which the user token can read.
        const page = await platformCall<{ access_token?: string }>(`${graph}/${encodeURIComponent(target.id)}?fields=access_token`, { token });
        if (!page.access_token) throw new PlatformCallError(403, 'You cannot stream to this page.');
        token = page.access_token;
      }
      const s = destination.settings;
      const body: Record<string, string> = { status: 'LIVE_NOW', title: s.title ?? '', description: s.description ?? '' };
      if (target.type === 'timeline') body.privacy = JSON.stringify({ value: s.privacy ?? 'EVERYONE' });
      const video = await platformCall<{ id: string; stream_url?: string; secure_stream_url?: string }>(
        `${graph}/${encodeURIComponent(target.id)}/live_videos`,
        { token, form: body },
      );
      const publish = video.secure_stream_url ?? video.stream_url;
      if (!publish) throw new PlatformCallError(502, 'no stream URL in the live video');
      const { url, key } = splitPublishUrl(publish);
      return { platformBroadcastId: video.id, ingest: { rtmpUrl: url, streamKey: key } };
    },
  };
}
