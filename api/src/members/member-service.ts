import { createHash, randomBytes } from 'node:crypto';
import { grantableRoleSchema, INVITATION_LIFETIME_DAYS, OnAirError, projectRoleSchema, type ProjectInvitation, type ProjectMember } from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { CurrentUser } from '../http/auth-context.ts';
import type { Mailer } from '../mail/mailer.ts';
import { roleInvitationMail } from '../mail/templates.ts';

type GrantableRole = 'cohost' | 'contributor' | 'viewer';

/**
 * The people of a project (spec §6). The owner is the host and stays so; others are invited to a
 * role by e-mail and hold it once they accept. Who may call these is decided before (mount() and
 * ProjectAccess: 'read project' to list, 'manage guests' to change).
 */
export class MemberService {
  constructor(private readonly deps: { db: Db; mailer: Mailer; logger: Logger; publicUrl: string }) {}

  async list(projectId: string): Promise<ProjectMember[]> {
    const project = await this.deps.db.project.findUniqueOrThrow({
      where: { id: projectId },
      select: {
        owner: { select: { id: true, email: true, name: true } },
        members: { orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }], select: { role: true, user: { select: { id: true, email: true, name: true } } } },
      },
    });
    const owner: ProjectMember = { userId: project.owner.id, email: project.owner.email, displayName: project.owner.name, role: 'host', owner: true };
    return [
      owner,
      ...project.members.map((m) => ({
        userId: m.user.id,
        email: m.user.email,
        displayName: m.user.name,
        role: projectRoleSchema.parse(m.role),
        owner: false,
      })),
    ];
  }

  /**
   * Invites an address to a role: a mail with a link to accept (spec §6, issue 15). Nothing is given
   * until the invited person accepts, signed in with that address; inviting again replaces an
   * invitation not yet accepted (its old link stops working).
   */
  async invite(by: CurrentUser, projectId: string, email: string, role: GrantableRole): Promise<ProjectInvitation> {
    const { db } = this.deps;
    const address = email.trim().toLowerCase();
    const project = await db.project.findUniqueOrThrow({ where: { id: projectId }, select: { name: true, owner: { select: { email: true } } } });
    if (project.owner.email.toLowerCase() === address) throw new OnAirError('OWNER_ROLE_FIXED');
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    const invitation = await db.$transaction(async (tx) => {
      await tx.projectInvitation.deleteMany({ where: { projectId, email: address, acceptedAt: null } });
      return tx.projectInvitation.create({
        data: {
          projectId,
          email: address,
          role,
          tokenHash: sha256(token),
          invitedById: by.id,
          createdAt: now,
          expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_DAYS * 86_400_000),
        },
      });
    });
    this.deps.logger.info({ audit: 'role-invited', projectId, invitationId: invitation.id, role, by: by.id }, 'project role offered by e-mail');
    const acceptUrl = `${this.deps.publicUrl.replace(/\/+$/, '')}/invitation?token=${encodeURIComponent(token)}`;
    // The invitation stands whether or not the mail goes out; a mail failure is logged, not the caller's error.
    await this.deps.mailer.send(roleInvitationMail(address, project.name, role, acceptUrl, INVITATION_LIFETIME_DAYS)).catch((err: unknown) => {
      this.deps.logger.warn({ err: (err as Error).message, projectId, invitationId: invitation.id }, 'invitation mail not sent');
    });
    return invitationView(invitation);
  }

  async invitations(projectId: string): Promise<ProjectInvitation[]> {
    const rows = await this.deps.db.projectInvitation.findMany({
      where: { projectId, acceptedAt: null, expiresAt: { gt: new Date() } },
      orderBy: { createdAt: 'asc' },
    });
    return rows.map(invitationView);
  }

  async withdraw(by: CurrentUser, projectId: string, invitationId: string): Promise<void> {
    const { count } = await this.deps.db.projectInvitation.deleteMany({ where: { id: invitationId, projectId, acceptedAt: null } });
    if (count === 0) throw new OnAirError('NOT_FOUND', 'There is no such invitation waiting.');
    this.deps.logger.info({ audit: 'role-invitation-withdrawn', projectId, invitationId, by: by.id }, 'project invitation withdrawn');
  }

  /** Accepting gives the role; only the account of the invited address can accept, and only once. */
  async accept(user: CurrentUser, token: string): Promise<{ projectId: string; projectName: string; role: GrantableRole }> {
    const { db } = this.deps;
    const invitation = await db.projectInvitation.findUnique({
      where: { tokenHash: sha256(token) },
      include: { project: { select: { name: true, ownerId: true } } },
    });
    if (!invitation || invitation.acceptedAt) throw new OnAirError('INVITATION_INVALID');
    if (invitation.expiresAt <= new Date()) throw new OnAirError('INVITATION_EXPIRED');
    const account = await db.user.findUniqueOrThrow({ where: { id: user.id }, select: { email: true } });
    if (account.email.toLowerCase() !== invitation.email) throw new OnAirError('INVITATION_OTHER_ACCOUNT');
    if (invitation.project.ownerId === user.id) throw new OnAirError('OWNER_ROLE_FIXED');
    const role = grantableRoleSchema.parse(invitation.role);
    await db.$transaction([
      db.projectInvitation.update({ where: { id: invitation.id }, data: { acceptedAt: new Date(), acceptedById: user.id } }),
      db.projectMember.upsert({
        where: { projectId_userId: { projectId: invitation.projectId, userId: user.id } },
        create: { projectId: invitation.projectId, userId: user.id, role, grantedById: invitation.invitedById },
        update: { role, grantedById: invitation.invitedById },
      }),
    ]);
    this.deps.logger.info(
      { audit: 'role-granted', projectId: invitation.projectId, userId: user.id, role, invitationId: invitation.id },
      'project role given on accepting an invitation',
    );
    return { projectId: invitation.projectId, projectName: invitation.project.name, role };
  }

  async update(by: CurrentUser, projectId: string, userId: string, role: GrantableRole): Promise<ProjectMember> {
    await this.assertNotOwner(projectId, userId);
    const member = await this.deps.db.projectMember.findUnique({
      where: { projectId_userId: { projectId, userId } },
      select: { user: { select: { email: true, name: true } } },
    });
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

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

function invitationView(row: { id: string; email: string; role: string; createdAt: Date; expiresAt: Date }): ProjectInvitation {
  return {
    id: row.id,
    email: row.email,
    role: grantableRoleSchema.parse(row.role),
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}
