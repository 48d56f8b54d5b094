import {
  AVATAR_MAX_BYTES,
  OnAirError,
  USERNAME_CHANGE_COOLDOWN_DAYS,
  type EmailNotifications,
  type LoginMethod,
  type PartnerAccount,
  type PersonalInfo,
} from '@onair/protocol';
import { Prisma, type Db } from '@onair/db';

const DAY_MS = 24 * 60 * 60 * 1000;

const providerLabels: Record<string, string> = { twitch: 'Twitch', google: 'YouTube (Google)', facebook: 'Facebook' };

type ProfileRow = NonNullable<Awaited<ReturnType<AccountService['loadProfile']>>>;

function personalInfoOf(row: ProfileRow): PersonalInfo | null {
  if (
    !row.onboardedAt ||
    !row.username ||
    !row.firstName ||
    !row.lastName ||
    !row.identity ||
    !row.birthdate ||
    !row.country ||
    !row.contentLanguage ||
    !row.mainPlatform ||
    !row.discoverySource
  ) {
    return null;
  }
  // The row was written through personalInfoSchema; protocol's response schema checks it again on the way out.
  return {
    username: row.username,
    firstName: row.firstName,
    lastName: row.lastName,
    identity: row.identity as PersonalInfo['identity'],
    pronouns: row.pronouns,
    birthdate: row.birthdate.toISOString().slice(0, 10),
    country: row.country,
    contentLanguage: row.contentLanguage as PersonalInfo['contentLanguage'],
    streamingDevices: row.streamingDevices as PersonalInfo['streamingDevices'],
    mainPlatform: row.mainPlatform as PersonalInfo['mainPlatform'],
    discoverySource: row.discoverySource as PersonalInfo['discoverySource'],
  };
}

/**
 * The creator account of the partner network (partner spec §3 Account): Get Started, Settings ›
 * Personal information with the username cooldown, e-mail notifications and the login methods
 * with the at-least-one rule (§5).
 */
export class AccountService {
  constructor(
    private readonly deps: {
      db: Db;
      /** OAuth providers this installation offers (their client ids are configured). */
      offeredProviders: readonly string[];
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  private loadProfile(userId: string) {
    return this.deps.db.partnerProfile.findUnique({ where: { userId }, omit: { avatar: true } });
  }

  async get(userId: string): Promise<PartnerAccount> {
    const { db } = this.deps;
    const user = await db.user.findUniqueOrThrow({
      where: { id: userId },
      select: { email: true, emailVerified: true, image: true, accounts: { select: { providerId: true, accountId: true } } },
    });
    const profile = await this.loadProfile(userId);
    const logins = await db.platformLogin.findMany({
      where: { OR: user.accounts.map((a) => ({ providerId: a.providerId, accountId: a.accountId })) },
      select: { providerId: true, accountId: true, login: true },
    });
    const linked = user.accounts.filter((a) => a.providerId !== 'credential');
    const methodCount = (user.emailVerified ? 1 : 0) + linked.length;
    const methods: LoginMethod[] = [
      { id: 'email', label: 'E-mail', connected: user.emailVerified, detail: user.email, canDisconnect: false },
      ...[...new Set([...this.deps.offeredProviders, ...linked.map((a) => a.providerId)])].map((providerId) => {
        const account = linked.find((a) => a.providerId === providerId);
        const login = account ? logins.find((l) => l.providerId === providerId && l.accountId === account.accountId)?.login : undefined;
        return {
          id: providerId,
          label: providerLabels[providerId] ?? providerId,
          connected: !!account,
          detail: login ?? null,
          canDisconnect: !!account && methodCount > 1,
        };
      }),
    ];
    const changedAt = profile?.usernameChangedAt;
    const availableAt = changedAt ? new Date(changedAt.getTime() + USERNAME_CHANGE_COOLDOWN_DAYS * DAY_MS) : null;
    return {
      email: user.email,
      avatar: user.image ?? null,
      profile: profile ? personalInfoOf(profile) : null,
      onboarded: !!profile?.onboardedAt,
      usernameChangeAvailableAt: availableAt && availableAt > this.now() ? availableAt.toISOString() : null,
      emailNotifications: {
        digest: profile?.notifyDigest ?? true,
        productUpdates: profile?.notifyProductUpdates ?? true,
        partnerNews: profile?.notifyPartnerNews ?? true,
      },
      loginMethods: methods,
    };
  }

  /** Get Started: the first complete profile. Done once; afterwards Settings edits it. */
  async completeOnboarding(userId: string, info: PersonalInfo): Promise<PartnerAccount> {
    const existing = await this.loadProfile(userId);
    if (existing?.onboardedAt) throw new OnAirError('CONFLICT', 'You have already completed Get Started. Change your details in Settings.');
    await this.write(userId, info, { onboardedAt: this.now() });
    return this.get(userId);
  }

  async updatePersonalInfo(userId: string, info: PersonalInfo): Promise<PartnerAccount> {
    const existing = await this.loadProfile(userId);
    if (!existing?.onboardedAt) throw new OnAirError('CONFLICT', 'Complete Get Started first.');
    const usernameChanged = existing.username !== info.username;
    if (usernameChanged && existing.usernameKey !== info.username.toLowerCase() && existing.usernameChangedAt) {
      const availableAt = new Date(existing.usernameChangedAt.getTime() + USERNAME_CHANGE_COOLDOWN_DAYS * DAY_MS);
      if (availableAt > this.now()) {
        throw new OnAirError(
          'USERNAME_CHANGE_TOO_SOON',
          `You can change your username once every ${USERNAME_CHANGE_COOLDOWN_DAYS} days. You can change it again on ${availableAt.toISOString().slice(0, 10)}.`,
          { availableAt: availableAt.toISOString() },
        );
      }
    }
    // Only a change to another name starts the cooldown; a change of letter case alone does not.
    const startsCooldown = usernameChanged && existing.usernameKey !== info.username.toLowerCase();
    await this.write(userId, info, startsCooldown ? { usernameChangedAt: this.now() } : {});
    return this.get(userId);
  }

  async updateEmailNotifications(userId: string, prefs: EmailNotifications): Promise<PartnerAccount> {
    const data = { notifyDigest: prefs.digest, notifyProductUpdates: prefs.productUpdates, notifyPartnerNews: prefs.partnerNews };
    await this.deps.db.partnerProfile.upsert({ where: { userId }, create: { userId, ...data }, update: data });
    return this.get(userId);
  }

  /** Settings › Integrations: unlink a platform unless it is the last way to sign in (spec §5). */
  async disconnect(userId: string, providerId: string): Promise<PartnerAccount> {
    const account = await this.get(userId);
    const method = account.loginMethods.find((m) => m.id === providerId && m.id !== 'email');
    if (!method?.connected) throw new OnAirError('NOT_FOUND', 'That platform is not connected to your account.');
    if (!method.canDisconnect) throw new OnAirError('LAST_LOGIN_METHOD');
    await this.deps.db.$transaction(async (tx) => {
      // Counted again inside the transaction: two unlinks at once must not both pass.
      const others = await tx.account.count({ where: { userId, providerId: { not: providerId } } });
      const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { emailVerified: true } });
      if (others + (user.emailVerified ? 1 : 0) < 1) throw new OnAirError('LAST_LOGIN_METHOD');
      await tx.account.deleteMany({ where: { userId, providerId } });
    });
    return this.get(userId);
  }

  /** Settings › Personal information: a new avatar, checked by its bytes (not only by what it claims to be). */
  async uploadAvatar(userId: string, dataUrl: string): Promise<PartnerAccount> {
    const match = /^data:(image\/(?:png|jpeg|webp));base64,(.+)$/.exec(dataUrl);
    const bytes = match ? Buffer.from(match[2]!, 'base64') : Buffer.alloc(0);
    const type = match?.[1];
    if (!type || bytes.length === 0 || bytes.length > AVATAR_MAX_BYTES || sniffImage(bytes) !== type)
      throw new OnAirError('AVATAR_INVALID', undefined, { field: 'avatar' });
    const avatar = new Uint8Array(bytes);
    await this.deps.db.$transaction([
      this.deps.db.partnerProfile.upsert({ where: { userId }, create: { userId, avatar, avatarType: type }, update: { avatar, avatarType: type } }),
      // The version in the address makes browsers fetch the new picture.
      this.deps.db.user.update({ where: { id: userId }, data: { image: `/api/v1/partner/avatars/${encodeURIComponent(userId)}?v=${this.now().getTime()}` } }),
    ]);
    return this.get(userId);
  }

  async removeAvatar(userId: string): Promise<PartnerAccount> {
    await this.deps.db.$transaction([
      this.deps.db.partnerProfile.updateMany({ where: { userId }, data: { avatar: null, avatarType: null } }),
      this.deps.db.user.update({ where: { id: userId }, data: { image: null } }),
    ]);
    return this.get(userId);
  }

  async avatarOf(userId: string): Promise<{ type: string; bytes: Uint8Array }> {
    const row = await this.deps.db.partnerProfile.findUnique({
      where: { userId },
      select: { avatar: true, avatarType: true, user: { select: { deactivatedAt: true } } },
    });
    // A deleted account's picture is hidden with the rest of its public face.
    if (!row?.avatar || !row.avatarType || row.user.deactivatedAt) throw new OnAirError('NOT_FOUND', 'There is no avatar here.');
    return { type: row.avatarType, bytes: row.avatar };
  }

  private async write(userId: string, info: PersonalInfo, extra: { onboardedAt?: Date; usernameChangedAt?: Date }): Promise<void> {
    const data = {
      username: info.username,
      usernameKey: info.username.toLowerCase(),
      firstName: info.firstName,
      lastName: info.lastName,
      identity: info.identity,
      pronouns: info.pronouns,
      birthdate: new Date(`${info.birthdate}T00:00:00.000Z`),
      country: info.country,
      contentLanguage: info.contentLanguage,
      streamingDevices: info.streamingDevices,
      mainPlatform: info.mainPlatform,
      discoverySource: info.discoverySource,
      ...extra,
    };
    try {
      await this.deps.db.partnerProfile.upsert({ where: { userId }, create: { userId, ...data }, update: data });
    } catch (err) {
      if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') throw new OnAirError('USERNAME_TAKEN', undefined, { field: 'username' });
      throw err;
    }
  }
}

/** The image type its first bytes say, whatever the upload claims. */
function sniffImage(bytes: Buffer): string | null {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return null;
}
