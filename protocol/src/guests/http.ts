import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { projectIdParamsSchema } from '../http/projects.ts';
import {
  guestChatContentSchema,
  guestChatMessageSchema,
  guestDisplayNameSchema,
  guestJoinResultSchema,
  guestLinkCheckSchema,
  guestLinkSchema,
  guestSchema,
  guestTokenSchema,
} from './guests.ts';

export const getGuestLinkEndpoint = defineEndpoint({
  id: 'getGuestLink',
  projectPermission: 'invite guests',
  method: 'get',
  path: '/api/v1/projects/:projectId/guest-link',
  summary: 'The active guest link of the project (made on first ask), for Copy Guest Link.',
  tag: 'guests',
  access: 'user',
  params: projectIdParamsSchema,
  response: guestLinkSchema,
});

export const createGuestLinkEndpoint = defineEndpoint({
  id: 'createGuestLink',
  projectPermission: 'invite guests',
  method: 'post',
  path: '/api/v1/projects/:projectId/guest-link',
  summary: 'Generate New Link: a new guest link; the previous one stops admitting guests at once.',
  tag: 'guests',
  access: 'user',
  params: projectIdParamsSchema,
  response: guestLinkSchema,
  successStatus: 201,
});

export const listGuestsEndpoint = defineEndpoint({
  id: 'listGuests',
  projectPermission: 'read project',
  method: 'get',
  path: '/api/v1/projects/:projectId/guests',
  summary: 'The guests in the room now, with their names.',
  tag: 'guests',
  access: 'user',
  params: projectIdParamsSchema,
  /** `maximum`: how many guests the plan admits at once; null when it sets no limit ("Unlimited"). */
  response: z.object({ guests: z.array(guestSchema), maximum: z.number().int().min(0).nullable() }),
});

export const removeGuestEndpoint = defineEndpoint({
  id: 'removeGuest',
  projectPermission: 'manage guests',
  method: 'delete',
  path: '/api/v1/projects/:projectId/guests/:guestId',
  summary: 'Remove a guest from the room; their guest session ends.',
  tag: 'guests',
  access: 'user',
  params: projectIdParamsSchema.extend({ guestId: z.uuid() }),
  response: z.undefined(),
  successStatus: 204,
});

export const leaveAsGuestEndpoint = defineEndpoint({
  id: 'leaveAsGuest',
  projectPermission: 'manage self',
  method: 'post',
  path: '/api/v1/projects/:projectId/guests/leave',
  summary: 'A guest leaves the studio: their guest session ends.',
  tag: 'guests',
  access: 'user',
  params: projectIdParamsSchema,
  response: z.undefined(),
  successStatus: 204,
});

export const listGuestChatEndpoint = defineEndpoint({
  id: 'listGuestChat',
  projectPermission: 'join room',
  method: 'get',
  path: '/api/v1/projects/:projectId/guest-chat',
  summary: 'Guest Chat history of the project, oldest first (the latest 200).',
  tag: 'guests',
  access: 'user',
  params: projectIdParamsSchema,
  response: z.object({ messages: z.array(guestChatMessageSchema) }),
});

export const sendGuestChatEndpoint = defineEndpoint({
  id: 'sendGuestChat',
  projectPermission: 'join room',
  method: 'post',
  path: '/api/v1/projects/:projectId/guest-chat',
  summary: 'Send a Guest Chat message to everyone in the room (1 to 200 characters).',
  tag: 'guests',
  access: 'user',
  params: projectIdParamsSchema,
  body: z.strictObject({ content: guestChatContentSchema }),
  response: guestChatMessageSchema,
  successStatus: 201,
});

export const checkGuestLinkEndpoint = defineEndpoint({
  id: 'checkGuestLink',
  method: 'post',
  path: '/api/v1/guest/check',
  summary: 'Whether a guest link still admits guests, and whose studio it opens (the guest page asks before showing the camera settings).',
  tag: 'guests',
  access: 'public',
  body: z.strictObject({ projectId: z.uuid(), token: guestTokenSchema }),
  response: guestLinkCheckSchema,
});

export const joinAsGuestEndpoint = defineEndpoint({
  id: 'joinAsGuest',
  method: 'post',
  path: '/api/v1/guest/join',
  summary: 'Join a studio as a guest with its link: starts a guest session (a cookie) holding the guest role in that project.',
  tag: 'guests',
  access: 'public',
  body: z.strictObject({ projectId: z.uuid(), token: guestTokenSchema, displayName: guestDisplayNameSchema.default('') }),
  response: guestJoinResultSchema,
  successStatus: 201,
});

export const guestEndpoints = [
  getGuestLinkEndpoint,
  createGuestLinkEndpoint,
  listGuestsEndpoint,
  removeGuestEndpoint,
  leaveAsGuestEndpoint,
  listGuestChatEndpoint,
  sendGuestChatEndpoint,
  checkGuestLinkEndpoint,
  joinAsGuestEndpoint,
] as const;
