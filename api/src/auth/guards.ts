import { APIError, createAuthMiddleware, getSessionFromCtx } from 'better-auth/api';
import type { BetterAuthPlugin } from 'better-auth';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { Db } from '@onair/db';
import { errorCatalogue, type ErrorCode } from '@onair/protocol';
import type { AuthConfig } from './config.ts';

/** The header the api sets from Express's view of the client address (trust proxy applied). */
export const CLIENT_IP_HEADER = 'x-onair-client-ip';

/** Throws an OnAirError code through better-auth; the response translator keeps it as is. */
export function authError(code: ErrorCode, options: { message?: string; headers?: Record<string, string> } = {}): APIError {
  const { status, message } = errorCatalogue[code];
  return new APIError(status as 400, { code, message: options.message ?? message }, options.headers);
}

/** Endpoints that send a code or a link, and the body field holding the address they go to. */
const sendingPaths: Record<string, 'email' | 'phoneNumber' | 'newEmail'> = {
  '/email-otp/send-verification-otp': 'email',
  '/sign-in/magic-link': 'email',
  '/phone-number/send-otp': 'phoneNumber',
  '/email-otp/request-email-change': 'newEmail',
};

/** Endpoints that check a secret (code, link, OAuth result): each attempt counts per IP. */
const checkingPaths = new Set([
  '/sign-in/email-otp',
  '/email-otp/check-verification-otp',
  '/email-otp/verify-email',
  '/magic-link/verify',
  '/phone-number/verify',
  '/two-factor/verify-totp',
  '/two-factor/verify-backup-code',
  '/two-factor/enable',
  '/two-factor/disable',
  '/email-otp/change-email',
  '/sign-in/social',
  '/callback/:id',
]);

const emailSchema = z.email();

/**
 * Sign-in rate limits in Redis, shared by every api replica: per client IP over every sign-in
 * endpoint, and per e-mail address or phone number over the endpoints that send something (so
 * nobody can flood one inbox from many addresses). Also validates addresses up front so a
 * malformed e-mail gets EMAIL_INVALID before anything is stored or sent.
 */
export function signInGuards(deps: { redis: Redis; db: Db; config: AuthConfig }): BetterAuthPlugin {
  const perIp = new RateLimiterRedis({
    storeClient: deps.redis,
    keyPrefix: `${deps.config.AUTH_RATE_LIMIT_PREFIX}:ip`,
    points: deps.config.AUTH_RATE_LIMIT_PER_IP,
    duration: 60,
  });
  const perAddress = new RateLimiterRedis({
    storeClient: deps.redis,
    keyPrefix: `${deps.config.AUTH_RATE_LIMIT_PREFIX}:address`,
    points: deps.config.AUTH_RATE_LIMIT_PER_ADDRESS,
    duration: 600,
  });

  const consume = async (limiter: RateLimiterRedis, key: string) => {
    try {
      await limiter.consume(key);
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        throw authError('RATE_LIMITED', { headers: { 'retry-after': String(Math.max(1, Math.ceil(err.msBeforeNext / 1000))) } });
      }
      throw err;
    }
  };

  return {
    id: 'onair-sign-in-guards',
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path !== undefined && (ctx.path in sendingPaths || checkingPaths.has(ctx.path)),
          handler: createAuthMiddleware(async (ctx) => {
            const field = sendingPaths[ctx.path];
            const body = (ctx.body ?? {}) as Record<string, unknown>;
            const address = field ? body[field] : undefined;
            if (field === 'email' || field === 'newEmail') {
              if (typeof address !== 'string' || !emailSchema.safeParse(address.trim()).success) throw authError('EMAIL_INVALID');
            }
            const ip = ctx.request?.headers.get(CLIENT_IP_HEADER) ?? 'unknown';
            await consume(perIp, ip);
            if (typeof address === 'string') await consume(perAddress, address.trim().toLowerCase());

            if (ctx.path === '/email-otp/request-email-change' && typeof address === 'string') {
              // better-auth answers "sent" for an address in use (hiding who has an account); the
              // spec's e-mail update tells the signed-in user plainly that it is taken.
              const taken = await deps.db.user.findUnique({ where: { email: address.trim().toLowerCase() }, select: { id: true } });
              if (taken) {
                const session = await getSessionFromCtx(ctx);
                // Partner spec §5: "Your email address is already {email}".
                if (taken.id === session?.user.id)
                  throw authError('EMAIL_UNCHANGED', { message: `Your email address is already ${address.trim().toLowerCase()}` });
                throw authError('EMAIL_IN_USE');
              }
            }
            if (ctx.path === '/phone-number/verify' && body.updatePhoneNumber !== true && typeof body.phoneNumber === 'string') {
              // SMS codes sign in existing accounts only (an account is anchored on its e-mail):
              // an unknown number gets the same answer as a wrong code.
              const owner = await deps.db.user.findUnique({ where: { phoneNumber: body.phoneNumber }, select: { id: true } });
              if (!owner) throw authError('CODE_INVALID');
            }
          }),
        },
      ],
    },
  };
}
