import { z } from 'zod';
import { projectRoleSchema } from '../signaling/roles.ts';
import { defineEndpoint } from './endpoint.ts';
import { projectIdParamsSchema } from './projects.ts';

/**
 * The people of a project (spec §6): its owner is the host; a host or co-host gives others a role by
 * their account's e-mail address, changes it and takes it back. Guests join by link (not here);
 * `impersonate` is an administrator's and `renderer` the system's, so neither can be given.
 */
export const grantableRoles = ['cohost', 'contributor', 'viewer'] as const;
export const grantableRoleSchema = z.enum(grantableRoles);

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

export const addProjectMemberEndpoint = defineEndpoint({
  id: 'addProjectMember',
  projectPermission: 'manage guests',
  method: 'post',
  path: '/api/v1/projects/:projectId/members',
  summary: 'Give the OnAir account with this e-mail address a role in the project; they are told by e-mail.',
  tag: 'members',
  access: 'user',
  params: projectIdParamsSchema,
  body: z.strictObject({ email: z.email().max(254), role: grantableRoleSchema }),
  response: projectMemberSchema,
  successStatus: 201,
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

export const memberEndpoints = [listProjectMembersEndpoint, addProjectMemberEndpoint, updateProjectMemberEndpoint, removeProjectMemberEndpoint] as const;
