import { z } from 'zod';

/** Project roles of spec §6. Only the owner (host) exists in the product so far; the table is complete. */
export const projectRoles = ['host', 'cohost', 'contributor', 'guest', 'viewer', 'impersonate', 'renderer'] as const;
export const projectRoleSchema = z.enum(projectRoles);
export type ProjectRole = z.infer<typeof projectRoleSchema>;

export const projectPermissions = ['read project', 'update project', 'join room', 'invite guests', 'manage guests', 'manage broadcast', 'manage self'] as const;
export type ProjectPermission = (typeof projectPermissions)[number];

/**
 * Spec §6, written once as data: what each project role may do. The renderer only plays the
 * output audio and has no listed permission; no role means no permission.
 */
export const rolePermissions: Record<ProjectRole, readonly ProjectPermission[]> = {
  host: ['read project', 'update project', 'join room', 'invite guests', 'manage guests', 'manage broadcast'],
  cohost: ['read project', 'update project', 'join room', 'invite guests', 'manage guests', 'manage broadcast'],
  contributor: ['read project', 'update project', 'join room', 'invite guests'],
  guest: ['read project', 'join room', 'manage self'],
  viewer: ['read project', 'join room'],
  impersonate: ['read project', 'update project', 'invite guests', 'manage guests', 'manage broadcast'],
  renderer: [],
};

export function hasPermission(role: ProjectRole | null | undefined, permission: ProjectPermission): boolean {
  return role !== null && role !== undefined && rolePermissions[role].includes(permission);
}

/** Spec §5 "Audio: only the renderer role plays audio": every other page keeps the program's sound muted. */
export function playsOutputAudio(role: ProjectRole | null | undefined): boolean {
  return role === 'renderer';
}
