import { Router } from 'express';
import {
  acceptProjectInvitationEndpoint,
  inviteProjectMemberEndpoint,
  listProjectInvitationsEndpoint,
  listProjectMembersEndpoint,
  removeProjectMemberEndpoint,
  updateProjectMemberEndpoint,
  withdrawProjectInvitationEndpoint,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import { authenticate, getCurrentUser, type SessionResolver } from '../http/auth-context.ts';
import { mount, Reply } from '../http/mount.ts';
import type { MemberService } from './member-service.ts';

/** The caller's project role is checked by mount() against each endpoint's projectPermission. */
export function memberRoutes(deps: { db: Db; members: MemberService; resolveSession: SessionResolver }): Router {
  const router = Router();
  router.use('/api/v1/projects', authenticate(deps.db, deps.resolveSession));
  mount(router, listProjectMembersEndpoint, async ({ params }) => ({ members: await deps.members.list(params.projectId) }));
  router.use('/api/v1/invitations', authenticate(deps.db, deps.resolveSession));
  mount(router, inviteProjectMemberEndpoint, async ({ params, body }, { req }) =>
    deps.members.invite(getCurrentUser(req), params.projectId, body.email, body.role),
  );
  mount(router, listProjectInvitationsEndpoint, async ({ params }) => ({ invitations: await deps.members.invitations(params.projectId) }));
  mount(router, withdrawProjectInvitationEndpoint, async ({ params }, { req }) => {
    await deps.members.withdraw(getCurrentUser(req), params.projectId, params.invitationId);
    return new Reply(204, undefined);
  });
  mount(router, acceptProjectInvitationEndpoint, async ({ body }, { req }) => deps.members.accept(getCurrentUser(req), body.token));
  mount(router, updateProjectMemberEndpoint, async ({ params, body }, { req }) =>
    deps.members.update(getCurrentUser(req), params.projectId, params.userId, body.role),
  );
  mount(router, removeProjectMemberEndpoint, async ({ params }, { req }) => {
    await deps.members.remove(getCurrentUser(req), params.projectId, params.userId);
    return new Reply(204, undefined);
  });
  return router;
}
