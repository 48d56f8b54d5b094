import { Router } from 'express';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { OnAirError, reportClientErrorEndpoint, scrubErrorText, scrubRoute, trimStack } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { mount } from '../http/mount.ts';
import type { ApiMetrics } from './metrics.ts';

/** The stable name of the log line an operator alerts on. */
export const CLIENT_ERROR_EVENT = 'client_error';

/**
 * Errors the web app caught (its error boundaries) reach an operator: one warn line per report,
 * keyed by the code the creator sees, and a counter. The browser scrubbed the report already; it
 * is scrubbed again here, since anyone can post to a public route.
 */
export function clientErrorRoutes(deps: { redis: Redis; logger: Logger; metrics: ApiMetrics; perMinute: number }): Router {
  const router = Router();
  const limiter = new RateLimiterRedis({ storeClient: deps.redis, keyPrefix: 'onair:rl:client-errors', points: deps.perMinute, duration: 60 });
  const log = deps.logger.child({ component: 'client-errors' });
  mount(router, reportClientErrorEndpoint, async ({ body }, { req, res }) => {
    try {
      await limiter.consume(req.ip ?? 'unknown');
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      res.setHeader('retry-after', String(Math.max(1, Math.ceil(err.msBeforeNext / 1000))));
      throw new OnAirError('RATE_LIMITED', 'Too many error reports from your address. Wait a minute.');
    }
    deps.metrics.clientErrors.inc();
    log.warn(
      {
        event: CLIENT_ERROR_EVENT,
        errorCode: body.code,
        release: body.release,
        route: scrubRoute(body.route),
        message: scrubErrorText(body.message),
        ...(body.stack ? { stack: trimStack(body.stack) } : {}),
      },
      'the web app reported an error',
    );
    return { received: true as const };
  });
  return router;
}
