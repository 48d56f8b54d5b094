import { Router } from 'express';
import { getChannelEndpoint, listChannelCollaboratorsEndpoint, listChannelsEndpoint, listChannelStreamsEndpoint } from '@onair/protocol';
import { getCurrentUser } from '../../http/auth-context.ts';
import { mount } from '../../http/mount.ts';
import type { CollaboratorService } from '../collaborators/collaborator-service.ts';
import type { ChannelService } from './channel-service.ts';

/** The channel selector and the endpoints of one channel; mount() checks each endpoint's channelCapability. */
export function channelRoutes(channels: ChannelService, collaborators: CollaboratorService): Router {
  const router = Router();
  mount(router, listChannelsEndpoint, async (_input, { req }) => ({ channels: await channels.list(getCurrentUser(req).id) }));
  mount(router, getChannelEndpoint, async ({ params }, { req }) => channels.get(getCurrentUser(req), params.channelId));
  mount(router, listChannelStreamsEndpoint, async ({ params }) => ({ streams: await channels.streams(params.channelId) }));
  mount(router, listChannelCollaboratorsEndpoint, async ({ params }) => ({ invites: await collaborators.listSent(params.channelId) }));
  return router;
}
