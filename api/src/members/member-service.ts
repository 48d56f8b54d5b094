import { OnAirError, projectRoleSchema, type ProjectMember } from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { CurrentUser } from '../http/auth-context.ts';
import type { Mailer } from '../mail/mailer.ts';
import { roleGrantedMail } from '../mail/templates.ts';

type GrantableRole = 'cohost' | 'contributor' | 'viewer';

/**
 * The people of a project (spec §6). The owner is the host and stays so; others get a role by their
 * account's e-mail address and are told by mail. Who may call these is decided before (mount() and
 * ProjectAccess: 'read project' to list, 'manage guests' to change).
 */
export class MemberService {
  constructor(
    private readonly deps: { db: Db; mailer: Mailer; logger: Logger; publicUrl: string },
  ) {}

  async list(projectId: string): Promise<ProjectMember[]> {
    const project = await this.deps.db.project.findUniqueOrThrow({
      where: { id: projectId },
      select: {
        owner: { select: { id: true, email: true, name: true } },
        members: { orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }], select: { role: true, user: { select: { id: true, email: true, name: true } } } },
      },
    });
    const owner: ProjectMember = { userId: project.owner.id, email: project.owner.email, displayName: project.owner.name, role: 'host', owner: true };
    return [owner, ...project.members.map((m) => ({ userId: m.user.id, email: m.user.email, displayName: m.user.name, role: projectRoleSchema.parse(m.role), owner: false }))];
  }

  async add(by: CurrentUser, projectId: string, email: string, role: GrantableRole): Promise<ProjectMember> {
    const { db } = this.deps;
    const user = await db.user.findFirst({ where: { email: { equals: email.trim(), mode: 'insensitive' } }, select: { id: true, email: true, name: true } });
    if (!user) throw new OnAirError('MEMBER_ACCOUNT_NOT_FOUND', undefined, { field: 'email' });
    const project = await db.project.findUniqueOrThrow({ where: { id: projectId }, select: { ownerId: true, name: true } });
    if (project.ownerId === user.id) throw new OnAirError('OWNER_ROLE_FIXED');
    await db.projectMember.upsert({
      where: { projectId_userId: { projectId, userId: user.id } },
      create: { projectId, userId: user.id, role, grantedById: by.id },
      update: { role, grantedById: by.id },
    });
    this.deps.logger.info({ audit: 'role-granted', projectId, userId: user.id, role, by: by.id }, 'project role given');
    // The role holds whether or not the mail goes out; a mail failure is logged, not the caller's error.
    await this.deps.mailer.send(roleGrantedMail(user.email, project.name, role, `${this.deps.publicUrl.replace(/\/+$/, '')}/studio/${projectId}`)).catch((err: unknown) => {
      this.deps.logger.warn({ err: (err as Error).message, projectId, userId: user.id }, 'role mail not sent');
    });
    return { userId: user.id, email: user.email, displayName: user.name, role, owner: false };
  }

  async update(by: CurrentUser, projectId: string, userId: string, role: GrantableRole): Promise<ProjectMember> {
    await this.assertNotOwner(projectId, userId);
    const member = await this.deps.db.projectMember.findUnique({ where: { projectId_userId: { projectId, userId } }, select: { user: { select: { email: true, name: true } } } });
    if (!member) throw new OnAirError('NOT_FOUND', 'This person has no role in the project.');
    await this.deps.db.projectMember.update({ where: { projectId_userId: { projectId, userId } }, data: { role, grantedById: by.id } });
    this.deps.logger.info({ audit: 'role-changed', projectId, userId, role, by: by.id }, 'project role changed');
    return { userId, email: member.user.email, displayName: member.user.name, role, owner: false };
  }

  async remove(by: CurrentUser, projectId: string, userId: string): Promise<void> {
    await this.assertNotOwner(projectId, userId);
    const { count } = await this.deps.db.projectMember.deleteMany({ where: { projectId, userId } });
    if (count === 0) throw new OnAirError('NOT_FOUND', 'This person has no role in the project.');
    this.deps.logger.info({ audit: 'role-revoked', projectId, userId, by: by.id }, 'project role taken away');
  }

  private async assertNotOwner(projectId: string, userId: string): Promise<void> {
    const project = await this.deps.db.project.findUniqueOrThrow({ where: { id: projectId }, select: { ownerId: true } });
    if (project.ownerId === userId) throw new OnAirError('OWNER_ROLE_FIXED');
  }
}
