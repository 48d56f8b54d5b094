import { Router } from 'express';
import { listDevInboxEndpoint } from '@onair/protocol';
import type { DevInbox } from '../mail/dev-inbox.ts';
import { mount } from '../http/mount.ts';

/** The development inbox: mounted only when mail is captured instead of sent (see devInboxEnabled). */
export function devInboxRoutes(inbox: DevInbox): Router {
  const router = Router();
  mount(router, listDevInboxEndpoint, async ({ query }) => ({ messages: await inbox.list(query.to) }));
  return router;
}
