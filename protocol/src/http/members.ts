import { z } from 'zod';
import { projectRoleSchema } from '../signaling/roles.ts';
import { defineEndpoint } from './endpoint.ts';
import { projectIdParamsSchema } from './projects.ts';

/**
 * The people of a project (spec §6): its owner is the host; a host or co-host invites others to a
 * role by e-mail (they get it when they accept), changes it and takes it back. Guests join by link (not here);
 * `impersonate` is an administrator's and `renderer` the system's, so neither can be given.
 */
export const grantableRoles = ['cohost', 'contributor', 'viewer'] as const;
export const grantableRoleSchema = z.enum(grantableRoles);
export type GrantableRole = z.infer<typeof grantableRoleSchema>;

export const projectMemberSchema = z.object({
  userId: z.string(),
  email: z.string(),
  displayName: z.string().nullable(),
  role: projectRoleSchema,
  /** The owner: always the host; cannot be changed or removed. */
  owner: z.boolean(),
});
export type ProjectMember = z.infer<typeof projectMemberSchema>;

const memberParams = projectIdParamsSchema.extend({ userId: z.string().min(1).max(200) });

export const listProjectMembersEndpoint = defineEndpoint({
  id: 'listProjectMembers',
  projectPermission: 'read project',
  method: 'get',
  path: '/api/v1/projects/:projectId/members',
  summary: 'The people of a project and their roles, the owner first.',
  tag: 'members',
  access: 'user',
  params: projectIdParamsSchema,
  response: z.object({ members: z.array(projectMemberSchema) }),
});

/** How long an invitation can be accepted. */
export const INVITATION_LIFETIME_DAYS = 14;

/** An invitation by e-mail that has not been accepted yet. */
export const projectInvitationSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  role: grantableRoleSchema,
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
});
export type ProjectInvitation = z.infer<typeof projectInvitationSchema>;

export const inviteProjectMemberEndpoint = defineEndpoint({
  id: 'inviteProjectMember',
  projectPermission: 'manage guests',
  method: 'post',
  path: '/api/v1/projects/:projectId/invitations',
  summary:
    'Invite someone by e-mail to a role (co-host, contributor, viewer): they get the role when they accept the mailed invitation, signed in with that address.',
  tag: 'members',
  access: 'user',
  params: projectIdParamsSchema,
  body: z.strictObject({ email: z.email().max(254), role: grantableRoleSchema }),
  response: projectInvitationSchema,
  successStatus: 201,
});

export const listProjectInvitationsEndpoint = defineEndpoint({
  id: 'listProjectInvitations',
  projectPermission: 'manage guests',
  method: 'get',
  path: '/api/v1/projects/:projectId/invitations',
  summary: 'Invitations of the project not accepted yet.',
  tag: 'members',
  access: 'user',
  params: projectIdParamsSchema,
  response: z.object({ invitations: z.array(projectInvitationSchema) }),
});

export const withdrawProjectInvitationEndpoint = defineEndpoint({
  id: 'withdrawProjectInvitation',
  projectPermission: 'manage guests',
  method: 'delete',
  path: '/api/v1/projects/:projectId/invitations/:invitationId',
  summary: 'Withdraw an invitation: its link stops working.',
  tag: 'members',
  access: 'user',
  params: projectIdParamsSchema.extend({ invitationId: z.uuid() }),
  response: z.undefined(),
  successStatus: 204,
});

export const acceptProjectInvitationEndpoint = defineEndpoint({
  id: 'acceptProjectInvitation',
  method: 'post',
  path: '/api/v1/invitations/accept',
  summary: 'Accept an invitation from its mailed link, signed in with the address it was sent to: the role is given.',
  tag: 'members',
  access: 'user',
  body: z.strictObject({ token: z.string().min(1).max(200) }),
  response: z.object({ projectId: z.uuid(), projectName: z.string(), role: grantableRoleSchema }),
});

export const updateProjectMemberEndpoint = defineEndpoint({
  id: 'updateProjectMember',
  projectPermission: 'manage guests',
  method: 'patch',
  path: '/api/v1/projects/:projectId/members/:userId',
  summary: "Change a member's role.",
  tag: 'members',
  access: 'user',
  params: memberParams,
  body: z.strictObject({ role: grantableRoleSchema }),
  response: projectMemberSchema,
});

export const removeProjectMemberEndpoint = defineEndpoint({
  id: 'removeProjectMember',
  projectPermission: 'manage guests',
  method: 'delete',
  path: '/api/v1/projects/:projectId/members/:userId',
  summary: "Take a member's role away.",
  tag: 'members',
  access: 'user',
  params: memberParams,
  response: z.undefined(),
  successStatus: 204,
});

export const memberEndpoints = [
  listProjectMembersEndpoint,
  inviteProjectMemberEndpoint,
  listProjectInvitationsEndpoint,
  withdrawProjectInvitationEndpoint,
  acceptProjectInvitationEndpoint,
  updateProjectMemberEndpoint,
  removeProjectMemberEndpoint,
] as const;
