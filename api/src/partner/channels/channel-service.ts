import { OnAirError, type ChannelStream, type ChannelSummary } from '@onair/protocol';
import type { Db } from '@onair/db';
import { permissionGroupsOf, type ChannelAccess } from '../../access/channel-access.ts';
import { channelNameOf } from '../collaborators/collaborator-service.ts';
import type { CurrentUser } from '../../http/auth-context.ts';

const STREAMS_SHOWN = 50;

/** The channel selector and what each channel shows; who may see what was checked before (mount()). */
export class ChannelService {
  constructor(private readonly deps: { db: Db; access: ChannelAccess; now?: () => Date }) {}

  async list(userId: string): Promise<ChannelSummary[]> {
    const { db } = this.deps;
    const own = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { id: true, name: true, partnerProfile: { select: { username: true } } } });
    const collaborations = await db.collaboratorInvite.findMany({
      where: { collaboratorId: userId, state: 'accepted', channelOwner: { deactivatedAt: null } },
      orderBy: { answeredAt: 'asc' },
      select: { permissions: true, channelOwner: { select: { id: true, name: true, partnerProfile: { select: { username: true } } } } },
    });
    return [
      { id: own.id, name: channelNameOf(own), owner: true, permissions: [] },
      ...collaborations.map((c) => ({
        id: c.channelOwner.id,
        name: channelNameOf(c.channelOwner),
        owner: false,
        permissions: permissionGroupsOf(c.permissions),
      })),
    ];
  }

  async get(user: CurrentUser, channelId: string): Promise<ChannelSummary> {
    const owner = await this.deps.db.user.findUnique({
      where: { id: channelId },
      select: { id: true, name: true, partnerProfile: { select: { username: true } } },
    });
    if (!owner) throw new OnAirError('NOT_FOUND', 'This channel does not exist.');
    const role = await this.deps.access.roleOf(user, channelId);
    return { id: owner.id, name: channelNameOf(owner), owner: role?.kind === 'owner', permissions: role?.kind === 'collaborator' ? [...role.groups] : [] };
  }

  /** Analytics › stream stats: the channel owner's broadcasts that went on air, newest first. */
  async streams(channelId: string): Promise<ChannelStream[]> {
    const now = this.deps.now?.() ?? new Date();
    const rows = await this.deps.db.broadcast.findMany({
      where: { project: { ownerId: channelId }, startedAt: { not: null } },
      orderBy: { startedAt: 'desc' },
      take: STREAMS_SHOWN,
      select: { id: true, state: true, startedAt: true, endedAt: true, project: { select: { name: true } } },
    });
    return rows.map((r) => {
      const started = r.startedAt!;
      const until = r.endedAt ?? now;
      return {
        id: r.id,
        projectName: r.project.name,
        startedAt: started.toISOString(),
        endedAt: r.endedAt?.toISOString() ?? null,
        durationSeconds: Math.max(0, Math.floor((until.getTime() - started.getTime()) / 1000)),
        state: r.state,
      };
    });
  }
}
