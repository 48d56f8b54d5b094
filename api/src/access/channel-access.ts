import type { RequestHandler, Response } from 'express';
import {
  capabilityWords,
  channelAllows,
  OnAirError,
  permissionGroupSchema,
  type ChannelCapability,
  type ChannelRole,
  type PermissionGroup,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import type { CurrentUser } from './current-user.ts';

const NOT_A_COLLABORATOR = 'You are not a collaborator of this channel. Ask its owner for an invitation.';

export function permissionGroupsOf(stored: readonly string[]): PermissionGroup[] {
  return stored.flatMap((g) => {
    const parsed = permissionGroupSchema.safeParse(g);
    return parsed.success ? [parsed.data] : [];
  });
}

/**
 * Who may do what on a partner channel (partner spec §6), decided in one place on the server from
 * protocol's channelCapabilities table: the owner everything, a collaborator what their accepted
 * invitation's groups allow, anyone else nothing. Read from the database on every request, so an
 * edit or a revocation takes effect at the next call.
 */
export class ChannelAccess {
  constructor(private readonly db: Db) {}

  /** The caller's role on the channel, or null when they are neither its owner nor a collaborator. */
  async roleOf(user: CurrentUser, channelId: string): Promise<ChannelRole | null> {
    if (channelId === user.id) return { kind: 'owner' };
    const invite = await this.db.collaboratorInvite.findFirst({
      // A channel whose owner deleted their account (pending erasure) is closed to everyone.
      where: { channelOwnerId: channelId, collaboratorId: user.id, state: 'accepted', channelOwner: { deactivatedAt: null } },
      select: { permissions: true },
    });
    if (!invite) return null;
    return { kind: 'collaborator', groups: permissionGroupsOf(invite.permissions) };
  }

  /** The caller's role when it allows the capability; FORBIDDEN with words otherwise. */
  async require(user: CurrentUser, channelId: string, capability: ChannelCapability): Promise<ChannelRole> {
    const role = await this.roleOf(user, channelId);
    // A stranger learns no more than a collaborator of another channel: both are told the same.
    if (!role) throw new OnAirError('FORBIDDEN', NOT_A_COLLABORATOR, { capability });
    if (!channelAllows(role, capability)) {
      throw new OnAirError('FORBIDDEN', `Your access to this channel does not include ${capabilityWords(capability)}. Ask the channel owner to grant it.`, {
        capability,
      });
    }
    return role;
  }
}

const LOCALS_KEY = 'channelAccess';

export function provideChannelAccess(access: ChannelAccess): RequestHandler {
  return (_req, res, next) => {
    res.locals[LOCALS_KEY] = access;
    next();
  };
}

export function channelAccessOf(res: Response): ChannelAccess {
  const access = res.locals[LOCALS_KEY] as ChannelAccess | undefined;
  // A channel endpoint mounted where no access rules are provided must fail closed, never run.
  if (!access) throw new Error('channel endpoint mounted without provideChannelAccess()');
  return access;
}
