// YouTube as OnAir sees it: Google OAuth (offline access), and the Data API v3 calls of going
// live (channels, liveStreams insert, liveBroadcasts insert and bind), in Google's own shapes.
import { randomBytes } from 'node:crypto';
import { startPlatformDouble, type PlatformDouble } from './platform-double.ts';

export const YOUTUBE_CHANNEL = { id: 'UCada0000000000000000000', title: 'Ada Live' };
export const YOUTUBE_INGEST = { ingestionAddress: 'rtmp://a.rtmp.youtube.com/live2', streamName: 'abcd-efgh-ijkl-mnop-qrst' };

export interface YouTubeBroadcast {
  id: string;
  snippet: { title: string; description: string; scheduledStartTime: string };
  status: { privacyStatus: string; lifeCycleStatus: string; selfDeclaredMadeForKids: boolean };
  contentDetails: { boundStreamId?: string; enableAutoStart: boolean; enableAutoStop: boolean };
}

export interface YouTubeDouble extends PlatformDouble {
  broadcasts: YouTubeBroadcast[];
  /** The channel's statistics as channels.list?part=statistics gives them (counts as strings, as Google sends them). */
  statistics: { subscriberCount: number; viewCount: number; hiddenSubscriberCount: boolean };
  /** Concurrent viewers of the channel's live broadcast, or null while it is not live. */
  liveViewers: number | null;
  streams: string[];
  env(): Record<string, string>;
}

const googleError = (code: number, message: string, reason: string) => ({
  error: { code, message, errors: [{ message, domain: 'youtube.liveBroadcast', reason }] },
});

export async function startYouTubeDouble(): Promise<YouTubeDouble> {
  const broadcasts: YouTubeBroadcast[] = [];
  const streams: string[] = [];
  const LIVE_VIDEO = 'live-video-0001';
  const double = await startPlatformDouble(
    'youtube',
    {
      authorizePath: '/o/oauth2/v2/auth',
      tokenPath: '/token',
      tokenAnswer: (a, r) => ({
        access_token: a,
        expires_in: 3599,
        ...(r ? { refresh_token: r } : {}),
        scope: 'https://www.googleapis.com/auth/youtube',
        token_type: 'Bearer',
      }),
      grantError: (message) => ({ error: 'invalid_grant', error_description: message }),
      unauthorized: () => ({ error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } }),
      refreshTokens: true,
    },
    () => (req) => {
      const base = '/youtube/v3';
      if (req.method === 'GET' && req.path === `${base}/channels` && req.query.mine === 'true') {
        return {
          status: 200,
          body: {
            kind: 'youtube#channelListResponse',
            items: [
              {
                kind: 'youtube#channel',
                id: YOUTUBE_CHANNEL.id,
                snippet: { title: YOUTUBE_CHANNEL.title, thumbnails: { default: { url: 'https://yt3.ggpht.com/ada=s88' } } },
                ...(String(req.query.part ?? '')
                  .split(',')
                  .includes('statistics')
                  ? {
                      statistics: {
                        viewCount: String(youtube.statistics.viewCount),
                        // Google leaves the count out (and says so) when the creator hides it.
                        ...(youtube.statistics.hiddenSubscriberCount ? {} : { subscriberCount: String(youtube.statistics.subscriberCount) }),
                        hiddenSubscriberCount: youtube.statistics.hiddenSubscriberCount,
                        videoCount: '12',
                      },
                    }
                  : {}),
              },
            ],
          },
        };
      }
      // The channel's live broadcast now (the owner's, by their token), and its video's concurrent viewers.
      if (req.method === 'GET' && req.path === `${base}/liveBroadcasts` && req.query.broadcastStatus === 'active') {
        const live = youtube.liveViewers !== null;
        return {
          status: 200,
          body: {
            kind: 'youtube#liveBroadcastListResponse',
            items: live ? [{ kind: 'youtube#liveBroadcast', id: LIVE_VIDEO, snippet: { title: 'Live now', channelId: YOUTUBE_CHANNEL.id } }] : [],
            pageInfo: { totalResults: live ? 1 : 0, resultsPerPage: 5 },
          },
        };
      }
      if (req.method === 'GET' && req.path === `${base}/videos` && String(req.query.part ?? '').includes('liveStreamingDetails')) {
        const ids = String(req.query.id ?? '').split(',');
        const items =
          ids.includes(LIVE_VIDEO) && youtube.liveViewers !== null
            ? [
                {
                  kind: 'youtube#video',
                  id: LIVE_VIDEO,
                  liveStreamingDetails: { actualStartTime: '2026-11-25T10:00:00Z', concurrentViewers: String(youtube.liveViewers) },
                },
              ]
            : [];
        return { status: 200, body: { kind: 'youtube#videoListResponse', items } };
      }
      if (req.method === 'POST' && req.path === `${base}/liveStreams`) {
        const id = `stream-${randomBytes(4).toString('hex')}`;
        streams.push(id);
        const body = req.body as { snippet?: { title?: string }; cdn?: { ingestionType?: string } };
        if (!body.snippet?.title || body.cdn?.ingestionType !== 'rtmp')
          return { status: 400, body: googleError(400, 'Required parameter: snippet.title and cdn.ingestionType', 'required') };
        return {
          status: 200,
          body: {
            kind: 'youtube#liveStream',
            id,
            snippet: body.snippet,
            cdn: { ...body.cdn, ingestionInfo: { ...YOUTUBE_INGEST, backupIngestionAddress: 'rtmp://b.rtmp.youtube.com/live2?backup=1' } },
            status: { streamStatus: 'ready' },
          },
        };
      }
      if (req.method === 'POST' && req.path === `${base}/liveBroadcasts`) {
        const body = req.body as {
          snippet?: { title?: string; description?: string; scheduledStartTime?: string };
          status?: { privacyStatus?: string; selfDeclaredMadeForKids?: boolean };
          contentDetails?: { enableAutoStart?: boolean; enableAutoStop?: boolean };
        };
        const title = body.snippet?.title ?? '';
        if (title === '' || title.length > 100) return { status: 400, body: googleError(400, 'The broadcast title is invalid.', 'invalidTitle') };
        if ((body.snippet?.description ?? '').length > 5000)
          return { status: 400, body: googleError(400, 'The description is too long.', 'invalidDescription') };
        if (!body.snippet?.scheduledStartTime) return { status: 400, body: googleError(400, 'Required: scheduledStartTime', 'required') };
        const broadcast: YouTubeBroadcast = {
          id: `bcast-${randomBytes(4).toString('hex')}`,
          snippet: { title, description: body.snippet.description ?? '', scheduledStartTime: body.snippet.scheduledStartTime },
          status: {
            privacyStatus: body.status?.privacyStatus ?? 'private',
            lifeCycleStatus: 'created',
            selfDeclaredMadeForKids: body.status?.selfDeclaredMadeForKids ?? false,
          },
          contentDetails: { enableAutoStart: body.contentDetails?.enableAutoStart ?? false, enableAutoStop: body.contentDetails?.enableAutoStop ?? false },
        };
        broadcasts.push(broadcast);
        return { status: 200, body: { kind: 'youtube#liveBroadcast', ...broadcast } };
      }
      if (req.method === 'POST' && req.path === `${base}/liveBroadcasts/bind`) {
        const broadcast = broadcasts.find((b) => b.id === req.query.id);
        if (!broadcast) return { status: 404, body: googleError(404, 'Broadcast not found', 'liveBroadcastNotFound') };
        if (!req.query.streamId || !streams.includes(req.query.streamId))
          return { status: 404, body: googleError(404, 'Stream not found', 'liveStreamNotFound') };
        broadcast.contentDetails.boundStreamId = req.query.streamId;
        broadcast.status.lifeCycleStatus = 'ready';
        return { status: 200, body: { kind: 'youtube#liveBroadcast', ...broadcast } };
      }
      return null;
    },
  );
  // What the tests set here (statistics, liveViewers) the routes above read at each call.
  const youtube: YouTubeDouble = Object.assign(double, {
    broadcasts,
    streams,
    statistics: { subscriberCount: 0, viewCount: 0, hiddenSubscriberCount: false },
    liveViewers: null as number | null,
    env: () => ({
      GOOGLE_CLIENT_ID: double.clientId,
      GOOGLE_CLIENT_SECRET: double.clientSecret,
      GOOGLE_AUTHORIZATION_URL: `${double.url}/o/oauth2/v2/auth`,
      GOOGLE_TOKEN_URL: `${double.url}/token`,
      YOUTUBE_API_URL: `${double.url}/youtube/v3`,
    }),
  });
  return youtube;
}
