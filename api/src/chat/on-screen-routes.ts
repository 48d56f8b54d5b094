import { Router } from 'express';
import { getChatOnScreenEndpoint, hideChatOnScreenEndpoint, showChatOnScreenEndpoint } from '@onair/protocol';
import type { Db } from '@onair/db';
import { authenticate, type SessionResolver } from '../http/auth-context.ts';
import { mount } from '../http/mount.ts';
import type { ChatOnScreenService } from './on-screen-service.ts';

/** Chat on screen: read by anyone in the project, changed by those who may edit the show (mount() checks the role). */
export function chatOnScreenRoutes(deps: { db: Db; resolveSession: SessionResolver; onScreen: ChatOnScreenService }): Router {
  const router = Router();
  router.use('/api/v1/projects', authenticate(deps.db, deps.resolveSession));
  mount(router, getChatOnScreenEndpoint, async ({ params }) => deps.onScreen.view(params.projectId));
  mount(router, showChatOnScreenEndpoint, async ({ params, body }) => deps.onScreen.show(params.projectId, body.kind, body.messageId, body.durationMs));
  mount(router, hideChatOnScreenEndpoint, async ({ params, query }) => deps.onScreen.hide(params.projectId, query.messageId));
  return router;
}
