import { Router } from 'express';
import { addProjectMemberEndpoint, listProjectMembersEndpoint, removeProjectMemberEndpoint, updateProjectMemberEndpoint } from '@onair/protocol';
import type { Db } from '@onair/db';
import { authenticate, getCurrentUser, type SessionResolver } from '../http/auth-context.ts';
import { mount, Reply } from '../http/mount.ts';
import type { MemberService } from '../members/member-service.ts';

/** The caller's project role is checked by mount() against each endpoint's projectPermission. */
export function memberRoutes(deps: { db: Db; members: MemberService; resolveSession: SessionResolver }): Router {
  const router = Router();
  router.use('/api/v1/projects', authenticate(deps.db, deps.resolveSession));
  mount(router, listProjectMembersEndpoint, async ({ params }) => ({ members: await deps.members.list(params.projectId) }));
  mount(router, addProjectMemberEndpoint, async ({ params, body }, { req }) => deps.members.add(getCurrentUser(req), params.projectId, body.email, body.role));
  mount(router, updateProjectMemberEndpoint, async ({ params, body }, { req }) => deps.members.update(getCurrentUser(req), params.projectId, params.userId, body.role));
  mount(router, removeProjectMemberEndpoint, async ({ params }, { req }) => {
    await deps.members.remove(getCurrentUser(req), params.projectId, params.userId);
    return new Reply(204, undefined);
  });
  return router;
}
