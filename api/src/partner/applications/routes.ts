import { Router, type Request, type Response } from 'express';
import OAuth2Server from '@node-oauth/oauth2-server';
import {
  answerAuthorizeRequestEndpoint,
  answerShortCodeEndpoint,
  checkAuthorizeRequestEndpoint,
  deviceAuthorizationEndpoint,
  listApplicationsEndpoint,
  listGrantsEndpoint,
  lookupShortCodeEndpoint,
  OAUTH_TOKEN_PATH,
  OAUTH_USERINFO_PATH,
  registerApplicationEndpoint,
  revokeGrantEndpoint,
  tokenRequestSchema,
} from '@onair/protocol';
import { getCurrentUser } from '../../http/auth-context.ts';
import { mount, Reply } from '../../http/mount.ts';
import type { ApplicationService } from './application-service.ts';

/** RFC 6749 §5.2: the token endpoint answers errors in the OAuth shape, which OAuth clients read. */
function oauthError(res: Response, status: number, error: string, description: string): void {
  res.status(status).setHeader('cache-control', 'no-store').json({ error, error_description: description });
}

export function applicationRoutes(apps: ApplicationService): Router {
  const router = Router();
  mount(router, listApplicationsEndpoint, async (_input, { req }) => ({ applications: await apps.list(getCurrentUser(req)) }));
  mount(router, registerApplicationEndpoint, async ({ body }, { req }) => new Reply(201, await apps.register(getCurrentUser(req), body)));
  mount(router, checkAuthorizeRequestEndpoint, async ({ query }) => (await apps.checkAuthorizeRequest(query)).consent);
  mount(router, answerAuthorizeRequestEndpoint, async ({ body }, { req }) => ({ redirectTo: await apps.answerAuthorizeRequest(getCurrentUser(req), body) }));
  mount(router, deviceAuthorizationEndpoint, async ({ body }) => apps.startDeviceAuthorization(body));
  mount(router, lookupShortCodeEndpoint, async ({ body }, { req }) => apps.lookupShortCode(getCurrentUser(req), body.userCode));
  mount(router, answerShortCodeEndpoint, async ({ body }, { req }) => apps.answerShortCode(getCurrentUser(req), body.userCode, body.allowed));
  mount(router, listGrantsEndpoint, async (_input, { req }) => ({ grants: await apps.grants(getCurrentUser(req).id) }));
  mount(router, revokeGrantEndpoint, async ({ params }, { req }) => {
    await apps.revoke(getCurrentUser(req).id, params.grantId);
    return new Reply(204, null);
  });

  // The token endpoint (authorization code with PKCE, device code): form-encoded in, RFC shape out.
  router.post(OAUTH_TOKEN_PATH, async (req: Request, res: Response) => {
    const body = tokenRequestSchema.safeParse(req.body);
    if (!body.success || !req.is('application/x-www-form-urlencoded')) {
      oauthError(res, 400, 'invalid_request', 'Send grant_type and its parameters as application/x-www-form-urlencoded.');
      return;
    }
    try {
      const token = await apps.server.token(new OAuth2Server.Request(req), new OAuth2Server.Response(res));
      const expiresIn = token.accessTokenExpiresAt ? Math.max(0, Math.round((token.accessTokenExpiresAt.getTime() - Date.now()) / 1000)) : undefined;
      res
        .status(200)
        .setHeader('cache-control', 'no-store')
        .json({
          access_token: token.accessToken,
          token_type: 'Bearer',
          ...(expiresIn === undefined ? {} : { expires_in: expiresIn }),
          scope: (token.scope ?? []).join(' '),
        });
    } catch (err) {
      if (err instanceof OAuth2Server.OAuthError && err.code < 500) oauthError(res, err.code, err.name, err.message);
      else throw err;
    }
  });

  // What a token may read: the creator it acts for (RFC 6750 bearer token).
  router.get(OAUTH_USERINFO_PATH, async (req: Request, res: Response) => {
    const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/.exec(req.headers.authorization ?? '');
    const user = match ? await apps.userOfToken(match[1]!) : null;
    if (!user) {
      res
        .status(401)
        .setHeader('www-authenticate', 'Bearer error="invalid_token"')
        .json({ error: 'invalid_token', error_description: 'The access token is missing, expired or revoked.' });
      return;
    }
    res.json({ sub: user.userId, username: user.username, scope: user.scopes.join(' ') });
  });
  return router;
}
