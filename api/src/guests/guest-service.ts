import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  GUEST_LINK_LIFETIME_DAYS,
  GUEST_SESSION_HOURS,
  guestChannels,
  guestLinkUrl,
  maximumGuestsOf,
  OnAirError,
  serverMessageSchema,
  type Guest,
  type GuestChatMessage,
  type GuestJoinResult,
  type GuestLinkView,
  type ProjectRole,
  type ServerMessage,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import { loadCurrentUser, type CurrentUser } from '../http/auth-context.ts';
import { activeGuest } from '../access/active-guest.ts';
import { GuestTokens, sha256 } from './guest-tokens.ts';

const DAY_MS = 86_400_000;
/** Guest Chat history a page loads. */
const CHAT_HISTORY = 200;
/** A guest whose last socket closed keeps their seat this long (a reload, a network blip). */
export const GUEST_GRACE_MS = 10_000;

export interface GuestServiceDeps {
  db: Db;
  redis: Redis;
  logger: Logger;
  publicUrl: string;
  /** Signs link tokens (the api's AUTH_SECRET). */
  secret: string;
  /** Told when a guest has left the room (the scenes that follow their layout re-flow without them). */
  onLeft?: (guestId: string, projectId: string) => Promise<unknown>;
}

/**
 * Guests by link (spec §2 Invite Guests panel, §6): one active link per project, joining with it as
 * the guest role (a guest session, no account), the plan's guest limit, removing and leaving, and
 * Guest Chat stored with the project. Room events go out on the project's room channel, which every
 * api replica relays to the project's open studios and guest pages.
 */
export class GuestService {
  readonly tokens: GuestTokens;

  constructor(private readonly deps: GuestServiceDeps) {
    this.tokens = new GuestTokens(deps.secret);
  }

  /** The active link, made when the project has none (Copy Guest Link works from the first click). */
  async activeLink(by: CurrentUser, projectId: string): Promise<GuestLinkView> {
    const now = new Date();
    const link = await this.deps.db.guestLink.findFirst({ where: { projectId, revokedAt: null, expiresAt: { gt: now } }, orderBy: { createdAt: 'desc' } });
    return link ? this.view(projectId, link) : this.newLink(by, projectId);
  }

  /** Generate New Link: the previous link stops admitting guests; guests who joined by it stay until removed. */
  async newLink(by: CurrentUser, projectId: string): Promise<GuestLinkView> {
    const link = await this.deps.db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM projects WHERE id = ${projectId}::uuid FOR UPDATE`;
      const now = new Date();
      await tx.guestLink.updateMany({ where: { projectId, revokedAt: null }, data: { revokedAt: now } });
      const id = randomUUID();
      return tx.guestLink.create({
        data: {
          id,
          projectId,
          tokenHash: sha256(this.tokens.linkToken(id)),
          createdAt: now,
          expiresAt: new Date(now.getTime() + GUEST_LINK_LIFETIME_DAYS * DAY_MS),
          createdById: by.id,
        },
      });
    });
    this.deps.logger.info({ audit: 'guest-link-created', projectId, linkId: link.id, by: by.id }, 'new guest link; the previous one is revoked');
    await this.publishGuests(projectId);
    return this.view(projectId, link);
  }

  /**
   * What the guest page shows before joining; the same refusals as joining, the plan's guest limit
   * included, so a studio that cannot take the guest says so on the guest's first screen (before any
   * camera setup), and the host is told someone was turned away.
   */
  async check(projectId: string, token: string): Promise<{ projectName: string }> {
    const { project } = await this.admittingLink(projectId, token);
    const maximum = await this.maximumGuests(project.ownerId);
    const present = await this.deps.db.guest.count({ where: activeGuest(projectId, new Date()) });
    if (present >= maximum) await this.refuse(projectId, '', maximum);
    return { projectName: project.name };
  }

  /**
   * Joins as a guest: the link must be this project's active one, and the owner's plan must admit
   * one more guest (counted under the project's row lock, so two joins cannot both take the last
   * seat). Returns the guest session token for the cookie.
   */
  async join(projectId: string, token: string, displayName: string): Promise<GuestJoinResult & { sessionToken: string; expiresAt: Date }> {
    const { link, project } = await this.admittingLink(projectId, token);
    const maximum = await this.maximumGuests(project.ownerId);
    const sessionToken = this.tokens.newSessionToken();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + GUEST_SESSION_HOURS * 3_600_000);
    const guest = await this.deps.db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM projects WHERE id = ${projectId}::uuid FOR UPDATE`;
      const present = await tx.guest.count({ where: activeGuest(projectId, now) });
      if (present >= maximum) return null;
      return tx.guest.create({ data: { projectId, linkId: link.id, displayName, sessionTokenHash: sha256(sessionToken), joinedAt: now, expiresAt } });
    });
    if (!guest) return this.refuse(projectId, displayName, maximum);
    this.deps.logger.info({ projectId, guestId: guest.id, linkId: link.id }, 'guest joined by link');
    await this.publishGuests(projectId);
    return { projectId, projectName: project.name, guestId: guest.id, displayName, sessionToken, expiresAt };
  }

  private async maximumGuests(ownerId: string): Promise<number> {
    const owner = await loadCurrentUser(this.deps.db, ownerId);
    return maximumGuestsOf(owner?.entitlements ?? {});
  }

  /** Turns a guest away with the reason, and tells the host's open studios who was turned away and why. */
  private async refuse(projectId: string, displayName: string, maximum: number): Promise<never> {
    const message =
      maximum === 0
        ? "This studio's plan does not include guests."
        : `This studio already has ${maximum} ${maximum === 1 ? 'guest' : 'guests'}, the most its plan allows.`;
    // Before a name is given (the link was only opened) the host reads 'Someone'.
    const who = displayName || 'Someone';
    const hostMessage =
      maximum === 0
        ? `${who} tried to join, but your plan does not include guests. Upgrade to Premium to invite up to 10.`
        : `${who} tried to join, but your plan allows ${maximum} ${maximum === 1 ? 'guest' : 'guests'} at once.`;
    await this.publish(projectId, { type: 'guest.refused', projectId, displayName, maximum, message: hostMessage });
    throw new OnAirError('GUEST_LIMIT_REACHED', `${message} Ask the host to let you in later.`, { maximum });
  }

  /** The guest behind a guest-session cookie, as the caller of a request; null when the session is not live. */
  async resolveSession(sessionToken: string): Promise<CurrentUser | null> {
    const guest = await this.deps.db.guest.findUnique({
      where: { sessionTokenHash: sha256(sessionToken) },
      select: { id: true, projectId: true, displayName: true, leftAt: true, removedAt: true, expiresAt: true },
    });
    if (!guest || guest.leftAt || guest.removedAt || guest.expiresAt <= new Date()) return null;
    return { id: guest.id, userType: 'GUEST', plan: 'Free', entitlements: {}, guest: { projectId: guest.projectId, displayName: guest.displayName } };
  }

  /** The guests holding a seat, and the plan's number of seats (null: no limit). */
  async list(projectId: string): Promise<{ guests: Guest[]; maximum: number | null }> {
    const project = await this.deps.db.project.findUniqueOrThrow({ where: { id: projectId }, select: { ownerId: true } });
    const owner = await loadCurrentUser(this.deps.db, project.ownerId);
    const rows = await this.deps.db.guest.findMany({
      where: activeGuest(projectId, new Date()),
      orderBy: [{ joinedAt: 'asc' }, { id: 'asc' }],
      select: { id: true, displayName: true, joinedAt: true, link: { select: { revokedAt: true } } },
    });
    return {
      guests: rows.map((g) => ({ id: g.id, displayName: g.displayName, joinedAt: g.joinedAt.toISOString(), byRevokedLink: g.link.revokedAt !== null })),
      maximum: finiteOrNull(maximumGuestsOf(owner?.entitlements ?? {})),
    };
  }

  async remove(by: CurrentUser, projectId: string, guestId: string): Promise<void> {
    const { count } = await this.deps.db.guest.updateMany({
      where: { id: guestId, projectId, removedAt: null, leftAt: null },
      data: { removedAt: new Date() },
    });
    if (count === 0) throw new OnAirError('NOT_FOUND', 'This guest is not in the studio.');
    this.deps.logger.info({ audit: 'guest-removed', projectId, guestId, by: by.id }, 'guest removed from the studio');
    await this.publish(projectId, { type: 'guest.removed', projectId, guestId, message: 'The host removed you from the studio.' });
    await this.publishGuests(projectId);
  }

  async leave(user: CurrentUser, projectId: string): Promise<void> {
    await this.markLeft(user.id, projectId);
  }

  /** A guest's last socket closed and did not come back within the grace period: their seat is free. */
  async markLeft(guestId: string, projectId: string): Promise<void> {
    const { count } = await this.deps.db.guest.updateMany({ where: { id: guestId, projectId, leftAt: null }, data: { leftAt: new Date() } });
    if (count === 0) return;
    await this.publishGuests(projectId);
    // The seat is free whatever happens to the scenes.
    await this.deps.onLeft?.(guestId, projectId).catch((err: unknown) => {
      this.deps.logger.warn({ err: (err as Error).message, projectId, guestId }, 'scenes not re-flowed after a guest left');
    });
  }

  async chatHistory(projectId: string): Promise<GuestChatMessage[]> {
    const rows = await this.deps.db.guestChatMessage.findMany({ where: { projectId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: CHAT_HISTORY });
    return rows.reverse().map(chatView);
  }

  async sendChat(user: CurrentUser, role: ProjectRole, projectId: string, content: string): Promise<GuestChatMessage> {
    const senderName = user.guest ? user.guest.displayName || 'Guest' : await this.accountName(user.id);
    const row = await this.deps.db.guestChatMessage.create({ data: { projectId, senderId: user.id, senderName, senderRole: role, content } });
    const message = chatView(row);
    await this.publish(projectId, { type: 'guest.chat', projectId, message });
    return message;
  }

  private async accountName(userId: string): Promise<string> {
    const user = await this.deps.db.user.findUnique({ where: { id: userId }, select: { name: true, email: true } });
    return user?.name || user?.email.split('@')[0] || 'Host';
  }

  private async admittingLink(projectId: string, token: string) {
    const linkId = this.tokens.linkIdOf(token);
    const link = linkId
      ? await this.deps.db.guestLink.findFirst({
          where: { id: linkId, tokenHash: sha256(token) },
          include: { project: { select: { id: true, name: true, ownerId: true } } },
        })
      : null;
    // A token of another project is as good as none here: nothing tells the caller it exists.
    if (!link || link.projectId !== projectId) throw new OnAirError('GUEST_LINK_INVALID');
    if (link.revokedAt) throw new OnAirError('GUEST_LINK_REVOKED');
    if (link.expiresAt <= new Date()) throw new OnAirError('GUEST_LINK_EXPIRED');
    return { link, project: link.project };
  }

  private view(projectId: string, link: { id: string; createdAt: Date; expiresAt: Date }): GuestLinkView {
    const code = this.tokens.linkToken(link.id);
    return {
      code,
      linkUrl: guestLinkUrl(this.deps.publicUrl, projectId, code),
      createdAt: link.createdAt.toISOString(),
      expiresAt: link.expiresAt.toISOString(),
    };
  }

  async publishGuests(projectId: string): Promise<void> {
    const { guests, maximum } = await this.list(projectId);
    await this.publish(projectId, { type: 'guests.changed', projectId, guests, maximum });
  }

  private async publish(projectId: string, message: ServerMessage): Promise<void> {
    await this.deps.redis.publish(guestChannels.room(projectId), JSON.stringify(serverMessageSchema.parse(message)));
  }
}

function finiteOrNull(n: number): number | null {
  return Number.isFinite(n) ? n : null;
}

function chatView(row: {
  id: string;
  projectId: string;
  senderId: string;
  senderName: string;
  senderRole: string;
  content: string;
  createdAt: Date;
}): GuestChatMessage {
  return {
    id: row.id,
    projectId: row.projectId,
    sender: row.senderId,
    displayName: row.senderName,
    role: row.senderRole,
    content: row.content,
    timestamp: row.createdAt.toISOString(),
  };
}
