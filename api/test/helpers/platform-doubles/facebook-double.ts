// Facebook as OnAir sees it: the Graph API v15.0 OAuth dialog and token endpoint (with the
// long-lived token exchange), /me, the user's pages, groups and events, a page's own token, and
// live_videos on a target, in Graph's own shapes.
import { randomBytes } from 'node:crypto';
import { startPlatformDouble, type PlatformDouble } from './platform-double.ts';

export const FACEBOOK_USER = { id: '10158000000000001', name: 'Ada Lovelace' };
export const FACEBOOK_PAGE = { id: '105000000000002', name: 'Ada Streams' };
export const FACEBOOK_GROUP = { id: '205000000000003', name: 'Analytical Engine Fans' };
export const FACEBOOK_EVENT = { id: '305000000000004', name: 'Launch night' };

export interface LiveVideo {
  id: string;
  targetId: string;
  title: string;
  description: string;
  status: string;
  privacy: string | null;
  /** The token it was created with: the page's own for a page. */
  token: string;
  streamKey: string;
}

export interface FacebookDouble extends PlatformDouble {
  liveVideos: LiveVideo[];
  pageToken: string;
  env(): Record<string, string>;
}

const graphError = (message: string, code = 100) => ({ error: { message, type: 'OAuthException', code, fbtrace_id: 'AbCdEf' } });

export async function startFacebookDouble(): Promise<FacebookDouble> {
  const liveVideos: LiveVideo[] = [];
  const pageToken = `page-token-${randomBytes(6).toString('hex')}`;
  const v = '/v15.0';
  const double = await startPlatformDouble(
    'facebook',
    {
      authorizePath: `${v}/dialog/oauth`,
      tokenPath: `${v}/oauth/access_token`,
      tokenAnswer: (a) => ({ access_token: a, token_type: 'bearer', expires_in: 5_183_944 }),
      grantError: (message) => graphError(message),
      unauthorized: () => graphError('Error validating access token: Session has expired.', 190),
      refreshTokens: false,
    },
    () => (req) => {
      if (req.method === 'GET' && req.path === `${v}/me`)
        return {
          status: 200,
          body: { ...FACEBOOK_USER, picture: { data: { height: 50, width: 50, is_silhouette: false, url: 'https://platform-lookaside.fbsbx.com/ada.jpg' } } },
        };
      if (req.method === 'GET' && req.path === `${v}/me/accounts`)
        return {
          status: 200,
          body: { data: [{ ...FACEBOOK_PAGE, category: 'Gaming Video Creator', tasks: ['CREATE_CONTENT'] }], paging: { cursors: { before: 'a', after: 'b' } } },
        };
      if (req.method === 'GET' && req.path === `${v}/me/groups`) return { status: 200, body: { data: [FACEBOOK_GROUP], paging: {} } };
      if (req.method === 'GET' && req.path === `${v}/me/events`) return { status: 200, body: { data: [FACEBOOK_EVENT], paging: {} } };
      if (req.method === 'GET' && req.path === `${v}/${FACEBOOK_PAGE.id}` && req.query.fields === 'access_token')
        return { status: 200, body: { access_token: pageToken, id: FACEBOOK_PAGE.id } };
      const live = new RegExp(`^${v}/([^/]+)/live_videos$`).exec(req.path);
      if (req.method === 'POST' && live) {
        const targetId = live[1]!;
        const known = [FACEBOOK_USER.id, FACEBOOK_PAGE.id, FACEBOOK_GROUP.id, FACEBOOK_EVENT.id];
        if (!known.includes(targetId)) return { status: 400, body: graphError(`Unsupported post request. Object with ID '${targetId}' does not exist`) };
        if (targetId === FACEBOOK_PAGE.id && req.token !== pageToken) return { status: 403, body: graphError('(#200) Requires a page access token', 200) };
        const body = req.body as Record<string, string>;
        const streamKey = `FB-${randomBytes(8).toString('hex')}`;
        const video: LiveVideo = {
          id: `live-${randomBytes(4).toString('hex')}`,
          targetId,
          title: body.title ?? '',
          description: body.description ?? '',
          status: body.status ?? 'UNPUBLISHED',
          privacy: body.privacy ?? null,
          token: req.token ?? '',
          streamKey,
        };
        liveVideos.push(video);
        return {
          status: 200,
          body: {
            id: video.id,
            stream_url: `rtmp://live-api-s.facebook.com:80/rtmp/${streamKey}`,
            secure_stream_url: `rtmps://live-api-s.facebook.com:443/rtmp/${streamKey}`,
          },
        };
      }
      return null;
    },
  );
  // The page's token is the page's: the platform accepts it for API calls too.
  const isValid = double.isValidToken.bind(double);
  double.isValidToken = (token) => token === pageToken || isValid(token);
  return Object.assign(double, {
    liveVideos,
    pageToken,
    env: () => ({
      FACEBOOK_CLIENT_ID: double.clientId,
      FACEBOOK_CLIENT_SECRET: double.clientSecret,
      FACEBOOK_AUTHORIZATION_URL: `${double.url}${v}/dialog/oauth`,
      FACEBOOK_TOKEN_URL: `${double.url}${v}/oauth/access_token`,
      FACEBOOK_GRAPH_URL: `${double.url}${v}`,
    }),
  });
}
