import { Router } from 'express';
import {
  acceptInviteEndpoint,
  createInviteEndpoint,
  declineInviteByLinkEndpoint,
  declineInviteEndpoint,
  leaveChannelEndpoint,
  listReceivedInvitesEndpoint,
  listSentInvitesEndpoint,
  removeSentInviteEndpoint,
  updateInviteEndpoint,
} from '@onair/protocol';
import { getCurrentUser } from '../../http/auth-context.ts';
import { mount, Reply } from '../../http/mount.ts';
import type { CollaboratorService } from './collaborator-service.ts';

/** Settings › Collaborators: the sent tab (the caller's own channel) and the received tab. */
export function collaboratorRoutes(collaborators: CollaboratorService): Router {
  const router = Router();
  mount(router, listSentInvitesEndpoint, async (_input, { req }) => ({ invites: await collaborators.listSent(getCurrentUser(req).id) }));
  mount(router, createInviteEndpoint, async ({ body }, { req }) => collaborators.invite(getCurrentUser(req).id, body));
  mount(router, updateInviteEndpoint, async ({ params, body }, { req }) =>
    collaborators.updatePermissions(getCurrentUser(req).id, params.inviteId, body.permissions),
  );
  mount(router, removeSentInviteEndpoint, async ({ params }, { req }) => {
    await collaborators.remove(getCurrentUser(req).id, params.inviteId);
    return new Reply(204, null);
  });
  mount(router, listReceivedInvitesEndpoint, async (_input, { req }) => ({ invites: await collaborators.listReceived(getCurrentUser(req).id) }));
  mount(router, acceptInviteEndpoint, async ({ params }, { req }) => collaborators.accept(getCurrentUser(req).id, params.inviteId));
  mount(router, declineInviteEndpoint, async ({ params }, { req }) => collaborators.decline(getCurrentUser(req).id, params.inviteId));
  mount(router, leaveChannelEndpoint, async ({ params }, { req }) => {
    await collaborators.leave(getCurrentUser(req).id, params.inviteId);
    return new Reply(204, null);
  });
  mount(router, declineInviteByLinkEndpoint, async ({ body }) => collaborators.declineByLink(body.token));
  return router;
}
