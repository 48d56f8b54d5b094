import type { RequestHandler, Response } from 'express';
import { hasPermission, OnAirError, projectRoleSchema, type ProjectPermission, type ProjectRole } from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { CurrentUser } from './current-user.ts';
import { activeGuest } from './active-guest.ts';

const PROJECT_NOT_FOUND = 'This project does not exist.';

/** What a creator reads when their role lacks a permission: "…does not allow you to {words}." */
const permissionWords: Record<ProjectPermission, string> = {
  'read project': 'open this project',
  'update project': 'change this project',
  'join room': 'join the studio',
  'invite guests': 'invite guests',
  'manage guests': 'manage the people of this project',
  'manage broadcast': 'manage destinations and broadcasts',
  'manage self': 'change your own settings here',
};

/**
 * Who may do what in a project (spec §6), decided in one place on the server: the owner is its
 * host, members hold the role given to them, an administrator acting on someone else's project is
 * `impersonate` (logged, and without 'join room'), anyone else has no role. A caller without a role
 * is told the project does not exist (its existence is none of their business); a role without the
 * permission is told so in words.
 */
export class ProjectAccess {
  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
  ) {}

  /** The caller's role in the project, or null; NOT_FOUND when there is no such project. */
  async roleOf(user: CurrentUser, projectId: string): Promise<ProjectRole | null> {
    // A guest of a link holds the guest role in that one project while their session is live.
    if (user.guest) {
      const exists = await this.db.project.count({ where: { id: projectId } });
      if (exists === 0) throw new OnAirError('NOT_FOUND', PROJECT_NOT_FOUND);
      if (user.guest.projectId !== projectId) return null;
      const live = await this.db.guest.count({ where: { id: user.id, ...activeGuest(projectId, new Date()) } });
      if (live === 0) throw new OnAirError('GUEST_SESSION_ENDED');
      return 'guest';
    }
    const project = await this.db.project.findUnique({
      where: { id: projectId },
      select: { ownerId: true, members: { where: { userId: user.id }, select: { role: true } } },
    });
    if (!project) throw new OnAirError('NOT_FOUND', PROJECT_NOT_FOUND);
    if (project.ownerId === user.id) return 'host';
    const member = projectRoleSchema.safeParse(project.members[0]?.role);
    if (member.success) return member.data;
    if (user.userType === 'ADMIN') {
      this.logger.info({ audit: 'impersonate', userId: user.id, projectId }, 'administrator acting on a project they do not own');
      return 'impersonate';
    }
    return null;
  }

  /** The caller's role, when it holds the permission; otherwise NOT_FOUND (no role) or FORBIDDEN (with words). */
  async require(user: CurrentUser, projectId: string, permission: ProjectPermission): Promise<ProjectRole> {
    const role = await this.roleOf(user, projectId);
    if (role === null) throw new OnAirError('NOT_FOUND', PROJECT_NOT_FOUND);
    if (!hasPermission(role, permission)) {
      throw new OnAirError('FORBIDDEN', `Your role in this project (${role}) does not allow you to ${permissionWords[permission]}.`, { role, permission });
    }
    return role;
  }
}

const LOCALS_KEY = 'projectAccess';

/** Makes the access rules reachable by `mount()` for every route behind it. */
export function provideProjectAccess(access: ProjectAccess): RequestHandler {
  return (_req, res, next) => {
    res.locals[LOCALS_KEY] = access;
    next();
  };
}

export function projectAccessOf(res: Response): ProjectAccess {
  const access = res.locals[LOCALS_KEY] as ProjectAccess | undefined;
  // A project endpoint mounted where no access rules are provided must fail closed, never run.
  if (!access) throw new Error('project endpoint mounted without provideProjectAccess()');
  return access;
}
