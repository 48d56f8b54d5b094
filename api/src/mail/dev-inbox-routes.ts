import { Router } from 'express';
import { listDevInboxEndpoint, OnAirError } from '@onair/protocol';
import type { DevInbox } from './dev-inbox.ts';
import { mount } from '../http/mount.ts';

const isLoopbackAddress = (ip: string | undefined) => !!ip && (ip === '::1' || /^(::ffff:)?127\./.test(ip));

/**
 * The development inbox: mounted only when mail is captured instead of sent (devInboxEnabled).
 * It shows sign-in codes, so unless DEV_INBOX=on it answers only callers on this machine (the
 * api listens on every interface by default, and a neighbour on the LAN must not read codes).
 */
export function devInboxRoutes(inbox: DevInbox, options: { anyClient: boolean }): Router {
  const router = Router();
  router.use(listDevInboxEndpoint.path, (req, _res, next) => {
    if (options.anyClient || isLoopbackAddress(req.ip)) return next();
    next(new OnAirError('NOT_FOUND'));
  });
  mount(router, listDevInboxEndpoint, async ({ query }) => ({ messages: await inbox.list(query.to) }));
  return router;
}
