import { exchangeAuthorizationCode, refreshAccessToken } from './oauth-token.ts';
import type { OAuthClientConfig, Platform, PlatformDestination } from './platform.ts';
import { platformCall, PlatformCallError } from './platform-http.ts';

interface LiveStream {
  id: string;
  cdn: { ingestionInfo: { ingestionAddress: string; streamName: string } };
}

/**
 * YouTube: Google OAuth (offline access for a refresh token), the Data API v3 for the channel, one
 * reusable liveStream per destination (its ingest lasts), and a liveBroadcast per go-live bound to
 * that stream, carrying title, description and privacy.
 */
export function youtubePlatform(client: OAuthClientConfig, urls: { api: string }): Platform {
  const api = urls.api;

  async function createStream(destination: PlatformDestination): Promise<LiveStream> {
    return platformCall<LiveStream>(`${api}/liveStreams?part=snippet,cdn,contentDetails`, {
      token: destination.accessToken,
      json: {
        snippet: { title: 'OnAir' },
        cdn: { frameRate: 'variable', ingestionType: 'rtmp', resolution: 'variable' },
        contentDetails: { isReusable: true },
      },
    });
  }

  return {
    provider: 'youtube',
    label: 'YouTube',
    authorizeUrl(state, redirectUri) {
      const u = new URL(client.authorizationUrl);
      u.search = new URLSearchParams({
        client_id: client.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'https://www.googleapis.com/auth/youtube',
        access_type: 'offline',
        prompt: 'consent',
        include_granted_scopes: 'true',
        state,
      }).toString();
      return u.toString();
    },
    exchangeCode: (code, redirectUri) => exchangeAuthorizationCode(client, code, redirectUri),
    refresh: ({ refreshToken }) => refreshAccessToken(client, refreshToken),
    async account(accessToken) {
      const answer = await platformCall<{ items?: { id: string; snippet: { title: string; thumbnails?: { default?: { url: string } } } }[] }>(
        `${api}/channels?part=snippet&mine=true`,
        { token: accessToken },
      );
      const channel = answer.items?.[0];
      if (!channel) throw new PlatformCallError(403, 'This Google account has no YouTube channel.');
      return {
        id: channel.id,
        username: channel.snippet.title,
        logo: channel.snippet.thumbnails?.default?.url ?? null,
        dashboardUrl: `https://studio.youtube.com/channel/${channel.id}/livestreaming`,
      };
    },
    async connect(destination) {
      const stream = await createStream(destination);
      return { rtmpUrl: stream.cdn.ingestionInfo.ingestionAddress, streamKey: stream.cdn.ingestionInfo.streamName, platformStreamId: stream.id };
    },
    async prepareBroadcast(destination) {
      let streamId = destination.platformStreamId;
      let ingest = null;
      if (!streamId) {
        const stream = await createStream(destination);
        streamId = stream.id;
        ingest = { rtmpUrl: stream.cdn.ingestionInfo.ingestionAddress, streamKey: stream.cdn.ingestionInfo.streamName };
      }
      const s = destination.settings;
      const broadcast = await platformCall<{ id: string }>(`${api}/liveBroadcasts?part=snippet,status,contentDetails`, {
        token: destination.accessToken,
        json: {
          snippet: { title: s.title || 'Live on OnAir', description: s.description ?? '', scheduledStartTime: new Date().toISOString() },
          status: { privacyStatus: s.privacy ?? 'public', selfDeclaredMadeForKids: false },
          // Auto start and stop: the broadcast goes live when our stream arrives and ends when it stops.
          contentDetails: { enableAutoStart: true, enableAutoStop: true },
        },
      });
      await platformCall(`${api}/liveBroadcasts/bind?id=${encodeURIComponent(broadcast.id)}&part=id,contentDetails&streamId=${encodeURIComponent(streamId)}`, {
        method: 'POST',
        token: destination.accessToken,
      });
      return { platformBroadcastId: broadcast.id, ingest, platformStreamId: streamId };
    },
  };
}
