import { Router, type Request, type Response } from 'express';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import {
  checkGuestLinkEndpoint,
  createGuestLinkEndpoint,
  getGuestLinkEndpoint,
  GUEST_SESSION_COOKIE,
  joinAsGuestEndpoint,
  leaveAsGuestEndpoint,
  listGuestChatEndpoint,
  listGuestsEndpoint,
  OnAirError,
  removeGuestEndpoint,
  sendGuestChatEndpoint,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import { authenticate, getCurrentUser, type SessionResolver } from '../http/auth-context.ts';
import { mount, Reply } from '../http/mount.ts';
import { projectAccessOf } from '../access/project-access.ts';
import type { GuestService } from './guest-service.ts';

export interface GuestRoutesDeps {
  db: Db;
  redis: Redis;
  guests: GuestService;
  resolveSession: SessionResolver;
  publicUrl: string;
  joinsPerMinute: number;
}

/**
 * Guests by link. The project routes are checked by mount() against their projectPermission (a
 * guest reaches them with their guest session); joining and checking a link are public, limited
 * per address like sign-in, and answer a bad token with words (GUEST_LINK_*).
 */
export function guestRoutes(deps: GuestRoutesDeps): Router {
  const router = Router();
  const limiter = new RateLimiterRedis({ storeClient: deps.redis, keyPrefix: 'onair:rl:guest-join', points: deps.joinsPerMinute, duration: 60 });
  const limit = async (req: Request, res: Response) => {
    try {
      await limiter.consume(req.ip ?? 'unknown');
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      res.setHeader('retry-after', String(Math.max(1, Math.ceil(err.msBeforeNext / 1000))));
      throw new OnAirError('RATE_LIMITED', 'Too many attempts to join from your address. Wait a minute and try again.');
    }
  };
  const secure = new URL(deps.publicUrl).protocol === 'https:';

  router.use('/api/v1/projects', authenticate(deps.db, deps.resolveSession));
  mount(router, getGuestLinkEndpoint, async ({ params }, { req }) => deps.guests.activeLink(getCurrentUser(req), params.projectId));
  mount(router, createGuestLinkEndpoint, async ({ params }, { req }) => deps.guests.newLink(getCurrentUser(req), params.projectId));
  mount(router, listGuestsEndpoint, async ({ params }) => deps.guests.list(params.projectId));
  mount(router, removeGuestEndpoint, async ({ params }, { req }) => {
    await deps.guests.remove(getCurrentUser(req), params.projectId, params.guestId);
    return new Reply(204, undefined);
  });
  mount(router, leaveAsGuestEndpoint, async ({ params }, { req, res }) => {
    await deps.guests.leave(getCurrentUser(req), params.projectId);
    res.clearCookie(GUEST_SESSION_COOKIE, { path: '/' });
    return new Reply(204, undefined);
  });
  mount(router, listGuestChatEndpoint, async ({ params }) => ({ messages: await deps.guests.chatHistory(params.projectId) }));
  mount(router, sendGuestChatEndpoint, async ({ params, body }, { req, res }) => {
    const user = getCurrentUser(req);
    const role = await projectAccessOf(res).require(user, params.projectId, 'join room');
    return deps.guests.sendChat(user, role, params.projectId, body.content);
  });

  mount(router, checkGuestLinkEndpoint, async ({ body }, { req, res }) => {
    await limit(req, res);
    return deps.guests.check(body.projectId, body.token);
  });
  mount(router, joinAsGuestEndpoint, async ({ body }, { req, res }) => {
    await limit(req, res);
    const joined = await deps.guests.join(body.projectId, body.token, body.displayName);
    res.cookie(GUEST_SESSION_COOKIE, joined.sessionToken, { httpOnly: true, sameSite: 'strict', secure, path: '/', expires: joined.expiresAt });
    return new Reply(201, { projectId: joined.projectId, projectName: joined.projectName, guestId: joined.guestId, displayName: joined.displayName });
  });
  return router;
}
