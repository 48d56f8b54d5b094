import { OnAirError, type AccountDeletionStatus } from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The one account deletion of both areas (partner spec §4, §5; studio spec §4 'Delete account'):
 * the account is deactivated at once — every session ends, its live broadcasts stop, its channel
 * and collaborations stop answering, and sign-in leads only to reactivation — and erased by the
 * erasure job once `eraseAfter` (ACCOUNT_RETENTION_DAYS later) has passed. Signing in before then
 * and confirming reactivates it. The partner area confirms with the username or e-mail address
 * (`requestDeletion`); the studio's dialog confirms with the word 'delete' and sends no payload
 * (`deactivate`).
 */
export class AccountDeletionService {
  constructor(
    private readonly deps: {
      db: Db;
      logger: Logger;
      retentionDays: number;
      /** Stops what runs on the account's behalf at the platforms (its live broadcasts). */
      stopPlatformConnections?: (userId: string) => Promise<void>;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  async status(userId: string): Promise<AccountDeletionStatus> {
    const user = await this.deps.db.user.findUniqueOrThrow({
      where: { id: userId },
      select: { deactivatedAt: true, eraseAfter: true, partnerProfile: { select: { username: true } } },
    });
    return {
      pendingDeletion: user.deactivatedAt !== null,
      deactivatedAt: user.deactivatedAt?.toISOString() ?? null,
      eraseAfter: user.eraseAfter?.toISOString() ?? null,
      retentionDays: this.deps.retentionDays,
      confirmWith: user.partnerProfile?.username ? 'username' : 'email',
    };
  }

  /** The partner area's request: the typed confirmation must be the account's username (or e-mail without one). */
  async requestDeletion(userId: string, confirmation: string): Promise<AccountDeletionStatus> {
    const user = await this.deps.db.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, partnerProfile: { select: { username: true } } } });
    const expected = user.partnerProfile?.username ?? user.email;
    if (confirmation.trim().toLowerCase() !== expected.toLowerCase()) {
      throw new OnAirError(
        'DELETION_CONFIRMATION_MISMATCH',
        user.partnerProfile?.username ? undefined : 'Type your e-mail address exactly as it is shown to confirm.',
        { field: 'confirmation' },
      );
    }
    return this.deactivate(userId);
  }

  /** Deactivates the account now (once: a second call changes nothing) and sets when it is erased. */
  async deactivate(userId: string): Promise<AccountDeletionStatus> {
    const { db } = this.deps;
    const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { deactivatedAt: true } });
    if (user.deactivatedAt) return this.status(userId);
    const now = this.now();
    await db.$transaction([
      db.user.update({ where: { id: userId }, data: { deactivatedAt: now, eraseAfter: new Date(now.getTime() + this.deps.retentionDays * DAY_MS) } }),
      // Signed out everywhere: every browser and API client of the account.
      db.session.deleteMany({ where: { userId } }),
    ]);
    this.deps.logger.info({ audit: 'account-deactivated', userId }, 'account deleted by its owner; erased after the retention window');
    // The account is deactivated whatever happens here; a broadcast that would not stop is logged.
    await this.deps.stopPlatformConnections?.(userId).catch((err: unknown) => {
      this.deps.logger.error({ err: (err as Error).message, userId }, 'stopping the platform connections of a deleted account failed');
    });
    return this.status(userId);
  }

  async reactivate(userId: string): Promise<AccountDeletionStatus> {
    const { count } = await this.deps.db.user.updateMany({
      where: { id: userId, deactivatedAt: { not: null } },
      data: { deactivatedAt: null, eraseAfter: null },
    });
    if (count === 0) throw new OnAirError('ACCOUNT_NOT_PENDING_DELETION');
    this.deps.logger.info({ audit: 'account-reactivated', userId }, 'account reactivated before its erasure');
    return this.status(userId);
  }

  /** Erases every account whose window has passed; returns how many. Everything it owns goes with it (ON DELETE CASCADE). */
  async eraseDue(): Promise<number> {
    const due = await this.deps.db.user.findMany({ where: { deactivatedAt: { not: null }, eraseAfter: { lte: this.now() } }, select: { id: true } });
    let erased = 0;
    for (const { id } of due) {
      // Checked again in the delete: a reactivation between the two must win.
      const { count } = await this.deps.db.user.deleteMany({ where: { id, deactivatedAt: { not: null }, eraseAfter: { lte: this.now() } } });
      if (count > 0) {
        erased += count;
        this.deps.logger.info({ audit: 'account-erased', userId: id }, 'account erased after the retention window');
      }
    }
    return erased;
  }
}
