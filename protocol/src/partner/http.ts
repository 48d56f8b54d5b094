import { z } from 'zod';
import { defineEndpoint, type Endpoint } from '../http/endpoint.ts';
import { channelIdParamsSchema, channelStreamSchema, channelSummarySchema } from './channels.ts';
import {
  createInviteBodySchema,
  declineByLinkBodySchema,
  declineByLinkResponseSchema,
  inviteIdParamsSchema,
  receivedInviteSchema,
  sentInviteSchema,
  updateInviteBodySchema,
} from './collaborators.ts';
import { getAccountDeletionEndpoint, reactivateAccountEndpoint, requestAccountDeletionEndpoint } from './deletion.ts';
import { downloadDataExportEndpoint, listDataExportsEndpoint, requestDataExportEndpoint } from './exports.ts';
import {
  answerAuthorizeRequestEndpoint,
  answerShortCodeEndpoint,
  checkAuthorizeRequestEndpoint,
  deviceAuthorizationEndpoint,
  listApplicationsEndpoint,
  listGrantsEndpoint,
  lookupShortCodeEndpoint,
  registerApplicationEndpoint,
  revokeGrantEndpoint,
} from './applications.ts';
import { emailNotificationsSchema, partnerAccountSchema, personalInfoSchema, uploadAvatarBodySchema } from './profile.ts';

// The partner network's calls (spec §7 says none are shown; these are OnAir's). Every endpoint of
// one channel names its channelCapability, which the api checks before the handler runs.

const tag = 'partner';

export const getPartnerAccountEndpoint = defineEndpoint({
  id: 'getPartnerAccount',
  method: 'get',
  path: '/api/v1/partner/account',
  summary: 'The creator account of the partner network: profile, onboarding, e-mail notifications, login methods.',
  tag,
  access: 'user',
  response: partnerAccountSchema,
});

export const completeOnboardingEndpoint = defineEndpoint({
  id: 'completePartnerOnboarding',
  method: 'post',
  path: '/api/v1/partner/account/onboarding',
  summary: 'Get Started: the account details of spec §3, once.',
  tag,
  access: 'user',
  body: personalInfoSchema,
  response: partnerAccountSchema,
});

export const updatePersonalInfoEndpoint = defineEndpoint({
  id: 'updatePartnerPersonalInfo',
  method: 'put',
  path: '/api/v1/partner/account/personal-info',
  summary: 'Settings › Personal information. A new username is refused within the change cooldown.',
  tag,
  access: 'user',
  body: personalInfoSchema,
  response: partnerAccountSchema,
});

export const updateEmailNotificationsEndpoint = defineEndpoint({
  id: 'updatePartnerEmailNotifications',
  method: 'put',
  path: '/api/v1/partner/account/email-notifications',
  summary: 'Settings › Email notifications: digest, product updates, partner news.',
  tag,
  access: 'user',
  body: emailNotificationsSchema,
  response: partnerAccountSchema,
});

export const disconnectLoginMethodEndpoint = defineEndpoint({
  id: 'disconnectPartnerLoginMethod',
  method: 'delete',
  path: '/api/v1/partner/account/login-methods/:providerId',
  summary: 'Settings › Integrations: unlink a platform; the last way to sign in cannot go (spec §5).',
  tag,
  access: 'user',
  params: z.object({ providerId: z.string().min(1).max(32) }),
  response: partnerAccountSchema,
});

export const uploadAvatarEndpoint = defineEndpoint({
  id: 'uploadPartnerAvatar',
  method: 'put',
  path: '/api/v1/partner/account/avatar',
  summary: 'Settings › Personal information: a new avatar (PNG, JPEG or WebP up to 0.5 MB, as a data: URL).',
  tag,
  access: 'user',
  body: uploadAvatarBodySchema,
  response: partnerAccountSchema,
});

export const removeAvatarEndpoint = defineEndpoint({
  id: 'removePartnerAvatar',
  method: 'delete',
  path: '/api/v1/partner/account/avatar',
  summary: 'Remove the uploaded avatar.',
  tag,
  access: 'user',
  response: partnerAccountSchema,
});

export const getAvatarEndpoint = defineEndpoint({
  id: 'getPartnerAvatar',
  method: 'get',
  path: '/api/v1/partner/avatars/:userId',
  summary: "A creator's uploaded avatar (the image itself).",
  tag,
  access: 'public',
  params: z.object({ userId: z.string().min(1).max(64) }),
  response: z.string().describe('image/png, image/jpeg or image/webp'),
});

export const listSentInvitesEndpoint = defineEndpoint({
  id: 'listSentCollaboratorInvites',
  method: 'get',
  path: '/api/v1/partner/collaborators/sent',
  summary: "Invitations to the caller's own channel, every state.",
  tag,
  access: 'user',
  response: z.object({ invites: z.array(sentInviteSchema) }),
});

export const createInviteEndpoint = defineEndpoint({
  id: 'createCollaboratorInvite',
  method: 'post',
  path: '/api/v1/partner/collaborators/sent',
  summary: 'Invite a collaborator by e-mail or Twitch username, with a message and permission groups.',
  tag,
  access: 'user',
  body: createInviteBodySchema,
  response: sentInviteSchema,
  successStatus: 201,
});

export const updateInviteEndpoint = defineEndpoint({
  id: 'updateCollaboratorInvite',
  method: 'patch',
  path: '/api/v1/partner/collaborators/sent/:inviteId',
  summary: "Change a collaborator's permission groups (takes effect at once).",
  tag,
  access: 'user',
  params: inviteIdParamsSchema,
  body: updateInviteBodySchema,
  response: sentInviteSchema,
});

export const removeSentInviteEndpoint = defineEndpoint({
  id: 'removeCollaboratorInvite',
  method: 'delete',
  path: '/api/v1/partner/collaborators/sent/:inviteId',
  summary: 'Revoke an invitation or a collaborator (access ends at once), or clear a declined one.',
  tag,
  access: 'user',
  params: inviteIdParamsSchema,
  response: z.null(),
  successStatus: 204,
});

export const listReceivedInvitesEndpoint = defineEndpoint({
  id: 'listReceivedCollaboratorInvites',
  method: 'get',
  path: '/api/v1/partner/collaborators/received',
  summary: "Invitations to the caller (by e-mail or by their linked Twitch account's name).",
  tag,
  access: 'user',
  response: z.object({ invites: z.array(receivedInviteSchema) }),
});

export const acceptInviteEndpoint = defineEndpoint({
  id: 'acceptCollaboratorInvite',
  method: 'post',
  path: '/api/v1/partner/collaborators/received/:inviteId/accept',
  summary: 'Accept an invitation; needs a connected Twitch account (spec §6).',
  tag,
  access: 'user',
  params: inviteIdParamsSchema,
  response: receivedInviteSchema,
});

export const declineInviteEndpoint = defineEndpoint({
  id: 'declineCollaboratorInvite',
  method: 'post',
  path: '/api/v1/partner/collaborators/received/:inviteId/decline',
  summary: 'Decline an invitation.',
  tag,
  access: 'user',
  params: inviteIdParamsSchema,
  response: receivedInviteSchema,
});

export const leaveChannelEndpoint = defineEndpoint({
  id: 'leaveCollaboration',
  method: 'delete',
  path: '/api/v1/partner/collaborators/received/:inviteId',
  summary: 'Leave a channel the caller collaborates on (or forget a declined invitation).',
  tag,
  access: 'user',
  params: inviteIdParamsSchema,
  response: z.null(),
  successStatus: 204,
});

export const declineInviteByLinkEndpoint = defineEndpoint({
  id: 'declineCollaboratorInviteByLink',
  method: 'post',
  path: '/api/v1/partner/collaborators/decline',
  summary: "Decline Collaboration Invite: the invitation e-mail's link, without signing in.",
  tag,
  access: 'public',
  body: declineByLinkBodySchema,
  response: declineByLinkResponseSchema,
});

export const listChannelsEndpoint = defineEndpoint({
  id: 'listPartnerChannels',
  method: 'get',
  path: '/api/v1/partner/channels',
  summary: 'The channel selector: the own channel and those the caller collaborates on, with their groups.',
  tag,
  access: 'user',
  response: z.object({ channels: z.array(channelSummarySchema) }),
});

export const getChannelEndpoint = defineEndpoint({
  id: 'getPartnerChannel',
  method: 'get',
  path: '/api/v1/partner/channels/:channelId',
  summary: 'One channel as the caller may see it.',
  tag,
  access: 'user',
  channelCapability: 'view channel',
  params: channelIdParamsSchema,
  response: channelSummarySchema,
});

export const listChannelStreamsEndpoint = defineEndpoint({
  id: 'listPartnerChannelStreams',
  method: 'get',
  path: '/api/v1/partner/channels/:channelId/streams',
  summary: "Analytics › stream stats: the channel's broadcasts, newest first.",
  tag,
  access: 'user',
  channelCapability: 'view stream stats',
  params: channelIdParamsSchema,
  response: z.object({ streams: z.array(channelStreamSchema) }),
});

export const listChannelCollaboratorsEndpoint = defineEndpoint({
  id: 'listPartnerChannelCollaborators',
  method: 'get',
  path: '/api/v1/partner/channels/:channelId/collaborators',
  summary: "The channel's invitations and collaborators (its owner only).",
  tag,
  access: 'user',
  channelCapability: 'manage collaborators',
  params: channelIdParamsSchema,
  response: z.object({ invites: z.array(sentInviteSchema) }),
});

/** The partner network's own endpoints (account, collaborators, channels, deletion, exports, applications); partnerEndpoints adds its areas. */
export const partnerNetworkEndpoints: readonly Endpoint[] = [
  getPartnerAccountEndpoint,
  completeOnboardingEndpoint,
  updatePersonalInfoEndpoint,
  updateEmailNotificationsEndpoint,
  disconnectLoginMethodEndpoint,
  uploadAvatarEndpoint,
  removeAvatarEndpoint,
  getAvatarEndpoint,
  listSentInvitesEndpoint,
  createInviteEndpoint,
  updateInviteEndpoint,
  removeSentInviteEndpoint,
  listReceivedInvitesEndpoint,
  acceptInviteEndpoint,
  declineInviteEndpoint,
  leaveChannelEndpoint,
  declineInviteByLinkEndpoint,
  listChannelsEndpoint,
  getChannelEndpoint,
  listChannelStreamsEndpoint,
  listChannelCollaboratorsEndpoint,
  getAccountDeletionEndpoint,
  requestAccountDeletionEndpoint,
  reactivateAccountEndpoint,
  listDataExportsEndpoint,
  requestDataExportEndpoint,
  downloadDataExportEndpoint,
  listApplicationsEndpoint,
  registerApplicationEndpoint,
  checkAuthorizeRequestEndpoint,
  answerAuthorizeRequestEndpoint,
  deviceAuthorizationEndpoint,
  lookupShortCodeEndpoint,
  answerShortCodeEndpoint,
  listGrantsEndpoint,
  revokeGrantEndpoint,
];
