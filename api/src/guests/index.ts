import { GUEST_SESSION_COOKIE } from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Redis } from 'ioredis';
import type { Logger } from '@onair/runtime';
import type { GuestResolver } from '../http/auth-context.ts';
import { GuestService } from './guest-service.ts';
import { readCookie } from './guest-tokens.ts';

export { GuestService } from './guest-service.ts';

export function createGuestService(
  deps: { db: Db; redis: Redis; logger: Logger; config: { PUBLIC_URL: string; AUTH_SECRET: string } },
  onLeft?: (guestId: string, projectId: string) => Promise<unknown>,
): GuestService {
  return new GuestService({
    db: deps.db,
    redis: deps.redis,
    logger: deps.logger,
    publicUrl: deps.config.PUBLIC_URL,
    secret: deps.config.AUTH_SECRET,
    ...(onLeft ? { onLeft } : {}),
  });
}

/** The guest behind a request's guest-session cookie. */
export function guestResolverOf(guests: GuestService): GuestResolver {
  return async (req) => {
    const token = readCookie(req.headers.cookie, GUEST_SESSION_COOKIE);
    return token ? guests.resolveSession(token) : null;
  };
}
