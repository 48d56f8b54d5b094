import { createHash, randomBytes } from 'node:crypto';
import { OnAirError, type CreateInviteBody, type PermissionGroup, type ReceivedInvite, type SentInvite } from '@onair/protocol';
import { Prisma, type Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { Mailer } from '../../mail/mailer.ts';
import { permissionGroupsOf } from '../../access/channel-access.ts';
import { collaboratorInviteMail } from './invite-mail.ts';

type Invitee = Exclude<CreateInviteBody['invitee'], undefined>;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

const inviteSelect = {
  id: true,
  channelOwnerId: true,
  inviteeEmail: true,
  inviteeTwitchLogin: true,
  collaboratorId: true,
  message: true,
  permissions: true,
  state: true,
  createdAt: true,
  collaborator: { select: { name: true, partnerProfile: { select: { username: true } } } },
  channelOwner: { select: { name: true, partnerProfile: { select: { username: true } } } },
} as const;
type InviteRow = Prisma.CollaboratorInviteGetPayload<{ select: typeof inviteSelect }>;

/** A channel's name as others see it: the creator's username, else their display name. Never their e-mail. */
export function channelNameOf(owner: { name: string; partnerProfile: { username: string | null } | null }): string {
  return owner.partnerProfile?.username || owner.name || 'Unnamed channel';
}

function toSent(row: InviteRow): SentInvite {
  return {
    id: row.id,
    invitee: row.inviteeEmail ? { kind: 'email', value: row.inviteeEmail } : { kind: 'twitch', value: row.inviteeTwitchLogin ?? '' },
    collaboratorName: row.collaborator ? channelNameOf(row.collaborator) : null,
    message: row.message,
    permissions: permissionGroupsOf(row.permissions),
    state: row.state as SentInvite['state'],
    createdAt: row.createdAt.toISOString(),
  };
}

function toReceived(row: InviteRow): ReceivedInvite {
  return {
    id: row.id,
    channel: { id: row.channelOwnerId, name: channelNameOf(row.channelOwner) },
    message: row.message,
    permissions: permissionGroupsOf(row.permissions),
    state: row.state as ReceivedInvite['state'],
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Collaborator invitations (partner spec §3, §4, §6): the owner invites by e-mail or Twitch
 * username with a message and permission groups, edits or revokes them; the invitee accepts (with
 * a connected Twitch account), declines (signed in or by the e-mail's link) or later leaves. An
 * accepted invitation is the collaboration: ChannelAccess reads its groups on every request.
 */
export class CollaboratorService {
  constructor(private readonly deps: { db: Db; mailer: Mailer; logger: Logger; publicUrl: string; now?: () => Date }) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  private url(path: string): string {
    return `${this.deps.publicUrl.replace(/\/+$/, '')}${path}`;
  }

  /** The Twitch logins of the caller's linked Twitch accounts (recorded at sign-in or link). */
  private async twitchLoginsOf(userId: string): Promise<string[]> {
    const accounts = await this.deps.db.account.findMany({ where: { userId, providerId: 'twitch' }, select: { accountId: true } });
    if (accounts.length === 0) return [];
    const logins = await this.deps.db.platformLogin.findMany({
      where: { providerId: 'twitch', accountId: { in: accounts.map((a) => a.accountId) } },
      select: { login: true },
    });
    return logins.map((l) => l.login);
  }

  /** Invitations addressed to this user: by their e-mail or one of their Twitch logins. */
  private async addressedTo(userId: string): Promise<Prisma.CollaboratorInviteWhereInput> {
    const user = await this.deps.db.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true } });
    const logins = await this.twitchLoginsOf(userId);
    return { OR: [{ inviteeEmail: user.email.toLowerCase() }, ...(logins.length ? [{ inviteeTwitchLogin: { in: logins } }] : [])] };
  }

  async listSent(ownerId: string): Promise<SentInvite[]> {
    const rows = await this.deps.db.collaboratorInvite.findMany({ where: { channelOwnerId: ownerId }, orderBy: { createdAt: 'desc' }, select: inviteSelect });
    return rows.map(toSent);
  }

  async invite(ownerId: string, body: { invitee: Invitee; message: string; permissions: PermissionGroup[] }): Promise<SentInvite> {
    const { db } = this.deps;
    const owner = await db.user.findUniqueOrThrow({
      where: { id: ownerId },
      select: { email: true, name: true, partnerProfile: { select: { username: true } } },
    });
    const invitee = body.invitee;
    const value = invitee.kind === 'email' ? invitee.email : invitee.username;
    // Who the invitation reaches, when they already have an account.
    const target =
      invitee.kind === 'email'
        ? await db.user.findFirst({ where: { email: { equals: invitee.email, mode: 'insensitive' } }, select: { id: true, email: true } })
        : await this.userOfTwitchLogin(invitee.username);
    if (target?.id === ownerId || (invitee.kind === 'email' && invitee.email === owner.email.toLowerCase())) throw new OnAirError('INVITE_TO_SELF');
    const already = await db.collaboratorInvite.findFirst({
      where: {
        channelOwnerId: ownerId,
        state: { in: ['pending', 'accepted'] },
        OR: [
          invitee.kind === 'email' ? { inviteeEmail: invitee.email } : { inviteeTwitchLogin: invitee.username },
          ...(target ? [{ collaboratorId: target.id }] : []),
        ],
      },
      select: { id: true },
    });
    const alreadyMessage = `${value} already collaborates on your channel or has an invitation waiting.`;
    if (already) throw new OnAirError('INVITE_ALREADY_COLLABORATES', alreadyMessage, { field: invitee.kind === 'email' ? 'email' : 'twitchUsername' });
    const token = randomBytes(24).toString('base64url');
    let row: InviteRow;
    try {
      row = await db.collaboratorInvite.create({
        data: {
          channelOwnerId: ownerId,
          inviteeEmail: invitee.kind === 'email' ? invitee.email : null,
          inviteeTwitchLogin: invitee.kind === 'twitch' ? invitee.username : null,
          message: body.message,
          permissions: body.permissions,
          declineTokenHash: hashToken(token),
        },
        select: inviteSelect,
      });
    } catch (err) {
      // The partial unique index: a second invitation sent at the same moment.
      if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') throw new OnAirError('INVITE_ALREADY_COLLABORATES', alreadyMessage);
      throw err;
    }
    this.deps.logger.info({ audit: 'collaborator-invited', channelId: ownerId, inviteId: row.id, permissions: body.permissions }, 'collaborator invited');
    const to = invitee.kind === 'email' ? invitee.email : target?.email;
    if (to) {
      const mail = collaboratorInviteMail({
        to,
        channelName: channelNameOf(owner),
        message: body.message,
        permissions: body.permissions,
        acceptUrl: this.url('/partner/settings/collaborators?tab=received'),
        declineUrl: this.url(`/partner/decline-invite?token=${token}`),
      });
      try {
        await this.deps.mailer.send(mail);
      } catch (err) {
        if (err instanceof OnAirError && err.code === 'EMAIL_UNDELIVERABLE') {
          // An address nobody can reach: the invitation would wait forever.
          await db.collaboratorInvite.delete({ where: { id: row.id } });
          throw err;
        }
        this.deps.logger.warn({ err: (err as Error).message, inviteId: row.id }, 'invitation mail not sent');
      }
    }
    return toSent(row);
  }

  async updatePermissions(ownerId: string, inviteId: string, permissions: PermissionGroup[]): Promise<SentInvite> {
    const { count } = await this.deps.db.collaboratorInvite.updateMany({
      where: { id: inviteId, channelOwnerId: ownerId, state: { in: ['pending', 'accepted'] } },
      data: { permissions },
    });
    if (count === 0) throw new OnAirError('INVITE_NOT_FOUND');
    this.deps.logger.info({ audit: 'collaborator-permissions-changed', channelId: ownerId, inviteId, permissions }, 'collaborator permissions changed');
    return toSent(await this.deps.db.collaboratorInvite.findUniqueOrThrow({ where: { id: inviteId }, select: inviteSelect }));
  }

  /** Revoke (pending or accepted: access ends at the next request) or clear (declined). */
  async remove(ownerId: string, inviteId: string): Promise<void> {
    const { count } = await this.deps.db.collaboratorInvite.deleteMany({ where: { id: inviteId, channelOwnerId: ownerId } });
    if (count === 0) throw new OnAirError('INVITE_NOT_FOUND');
    this.deps.logger.info({ audit: 'collaborator-revoked', channelId: ownerId, inviteId }, 'collaborator invitation removed');
  }

  async listReceived(userId: string): Promise<ReceivedInvite[]> {
    const addressed = await this.addressedTo(userId);
    const rows = await this.deps.db.collaboratorInvite.findMany({
      where: {
        OR: [
          { state: 'pending', ...addressed },
          { state: 'accepted', collaboratorId: userId },
        ],
        channelOwner: { deactivatedAt: null },
      },
      orderBy: { createdAt: 'desc' },
      select: inviteSelect,
    });
    return rows.filter((r) => r.channelOwnerId !== userId).map(toReceived);
  }

  private async pendingFor(userId: string, inviteId: string): Promise<InviteRow> {
    const addressed = await this.addressedTo(userId);
    const row = await this.deps.db.collaboratorInvite.findFirst({
      where: { id: inviteId, ...addressed, channelOwner: { deactivatedAt: null } },
      select: inviteSelect,
    });
    if (!row || row.channelOwnerId === userId) throw new OnAirError('INVITE_NOT_FOUND');
    if (row.state !== 'pending') throw new OnAirError('INVITE_NOT_PENDING');
    return row;
  }

  async accept(userId: string, inviteId: string): Promise<ReceivedInvite> {
    const row = await this.pendingFor(userId, inviteId);
    const twitch = await this.deps.db.account.count({ where: { userId, providerId: 'twitch' } });
    if (twitch === 0) throw new OnAirError('TWITCH_ACCOUNT_REQUIRED');
    const other = await this.deps.db.collaboratorInvite.findFirst({
      where: { channelOwnerId: row.channelOwnerId, collaboratorId: userId, state: 'accepted' },
      select: { id: true },
    });
    if (other) throw new OnAirError('INVITE_ALREADY_COLLABORATES', 'You already collaborate on this channel.');
    const { count } = await this.deps.db.collaboratorInvite.updateMany({
      where: { id: inviteId, state: 'pending' },
      data: { state: 'accepted', collaboratorId: userId, answeredAt: this.now() },
    });
    if (count === 0) throw new OnAirError('INVITE_NOT_PENDING');
    this.deps.logger.info({ audit: 'collaboration-accepted', channelId: row.channelOwnerId, inviteId, userId }, 'collaboration accepted');
    return toReceived(await this.deps.db.collaboratorInvite.findUniqueOrThrow({ where: { id: inviteId }, select: inviteSelect }));
  }

  async decline(userId: string, inviteId: string): Promise<ReceivedInvite> {
    await this.pendingFor(userId, inviteId);
    const { count } = await this.deps.db.collaboratorInvite.updateMany({
      where: { id: inviteId, state: 'pending' },
      data: { state: 'declined', collaboratorId: userId, answeredAt: this.now() },
    });
    if (count === 0) throw new OnAirError('INVITE_NOT_PENDING');
    return toReceived(await this.deps.db.collaboratorInvite.findUniqueOrThrow({ where: { id: inviteId }, select: inviteSelect }));
  }

  /** 'Decline Collaboration Invite' from the e-mail, without signing in: the link's token is the proof. */
  async declineByLink(token: string): Promise<{ channelName: string }> {
    const row = await this.deps.db.collaboratorInvite.findUnique({ where: { declineTokenHash: hashToken(token) }, select: inviteSelect });
    if (!row || row.state !== 'pending') throw new OnAirError('INVITE_LINK_INVALID');
    const { count } = await this.deps.db.collaboratorInvite.updateMany({
      where: { id: row.id, state: 'pending' },
      data: { state: 'declined', answeredAt: this.now() },
    });
    if (count === 0) throw new OnAirError('INVITE_LINK_INVALID');
    return { channelName: channelNameOf(row.channelOwner) };
  }

  /** Leave a channel (or forget an invitation one declined). */
  async leave(userId: string, inviteId: string): Promise<void> {
    const { count } = await this.deps.db.collaboratorInvite.deleteMany({ where: { id: inviteId, collaboratorId: userId, state: 'accepted' } });
    if (count === 0) throw new OnAirError('INVITE_NOT_FOUND');
    this.deps.logger.info({ audit: 'collaboration-left', inviteId, userId }, 'collaborator left a channel');
  }

  private async userOfTwitchLogin(login: string): Promise<{ id: string; email: string } | null> {
    const known = await this.deps.db.platformLogin.findMany({ where: { providerId: 'twitch', login }, select: { accountId: true } });
    if (known.length === 0) return null;
    const account = await this.deps.db.account.findFirst({
      where: { providerId: 'twitch', accountId: { in: known.map((k) => k.accountId) } },
      select: { user: { select: { id: true, email: true } } },
    });
    return account?.user ?? null;
  }
}
