import { createHash } from 'node:crypto';
import type OAuth2Server from '@node-oauth/oauth2-server';
import { DEVICE_CODE_GRANT, oauthScopeSchema } from '@onair/protocol';
import type { Db } from '@onair/db';

/** Codes and tokens are kept only as their SHA-256: a copy of the database lets nobody act as a creator. */
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

export interface OAuthClient extends OAuth2Server.Client {
  redirectUris: string[];
  /** Our row id (the client id is `id`, as the library names it). */
  applicationId: string;
  name: string;
  scopes: string[];
}

/** What a device poll finds (RFC 8628 §3.5). */
export type DevicePoll = { status: 'pending' | 'slow_down' | 'denied' | 'expired' | 'unknown' } | { status: 'allowed'; userId: string; scopes: string[] };

function toClient(app: { id: string; clientId: string; name: string; redirectUris: string[]; scopes: string[] }): OAuthClient {
  return {
    id: app.clientId,
    applicationId: app.id,
    name: app.name,
    redirectUris: app.redirectUris,
    scopes: app.scopes,
    grants: ['authorization_code', DEVICE_CODE_GRANT],
  };
}

/** Requested scopes (space-separated or a list) that the application may ask for, or null when one is not. */
export function allowedScopes(client: Pick<OAuthClient, 'scopes'>, requested: string[] | undefined): string[] | null {
  const asked = (requested ?? []).filter((s) => s.length > 0);
  if (asked.length === 0) return [...client.scopes];
  for (const scope of asked) if (!oauthScopeSchema.safeParse(scope).success || !client.scopes.includes(scope)) return null;
  return [...new Set(asked)];
}

/**
 * The storage of @node-oauth/oauth2-server (authorization code with PKCE, and our device-code
 * grant) on PostgreSQL: applications, one grant per creator and application, codes and tokens
 * hashed, every code used once.
 */
export class OAuthModel implements OAuth2Server.AuthorizationCodeModel {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async getClient(clientId: string): Promise<OAuthClient | null> {
    if (!clientId) return null;
    const app = await this.db.oAuthApplication.findUnique({ where: { clientId } });
    return app ? toClient(app) : null;
  }

  async validateScope(_user: OAuth2Server.User, client: OAuth2Server.Client, scope?: string[]): Promise<string[] | false> {
    return allowedScopes(client as OAuthClient, scope) ?? false;
  }

  async validateRedirectUri(redirectUri: string, client: OAuth2Server.Client): Promise<boolean> {
    return (client as OAuthClient).redirectUris.includes(redirectUri);
  }

  async saveAuthorizationCode(
    code: Pick<OAuth2Server.AuthorizationCode, 'authorizationCode' | 'expiresAt' | 'redirectUri' | 'scope' | 'codeChallenge' | 'codeChallengeMethod'>,
    client: OAuth2Server.Client,
    user: OAuth2Server.User,
  ): Promise<OAuth2Server.AuthorizationCode> {
    await this.db.oAuthAuthorizationCode.create({
      data: {
        codeHash: hashSecret(code.authorizationCode),
        applicationId: (client as OAuthClient).applicationId,
        userId: String(user.id),
        redirectUri: code.redirectUri,
        scopes: code.scope ?? [],
        // Checked before (PKCE is required of every application).
        codeChallenge: code.codeChallenge ?? '',
        codeChallengeMethod: code.codeChallengeMethod ?? 'S256',
        expiresAt: code.expiresAt,
      },
    });
    return { ...code, client, user };
  }

  async getAuthorizationCode(authorizationCode: string): Promise<OAuth2Server.AuthorizationCode | null> {
    const row = await this.db.oAuthAuthorizationCode.findUnique({ where: { codeHash: hashSecret(authorizationCode) }, include: { application: true } });
    if (!row) return null;
    return {
      authorizationCode,
      expiresAt: row.expiresAt,
      redirectUri: row.redirectUri,
      scope: row.scopes,
      client: toClient(row.application),
      user: { id: row.userId },
      codeChallenge: row.codeChallenge,
      codeChallengeMethod: row.codeChallengeMethod,
    };
  }

  /** Used once: a second exchange finds nothing (invalid_grant). */
  async revokeAuthorizationCode(code: OAuth2Server.AuthorizationCode): Promise<boolean> {
    const { count } = await this.db.oAuthAuthorizationCode.deleteMany({ where: { codeHash: hashSecret(code.authorizationCode) } });
    return count === 1;
  }

  async saveToken(token: OAuth2Server.Token, client: OAuth2Server.Client, user: OAuth2Server.User): Promise<OAuth2Server.Token> {
    const applicationId = (client as OAuthClient).applicationId;
    const userId = String(user.id);
    const scopes = token.scope ?? [];
    // The grant shows everything the creator allowed this application; each token keeps only its own scopes.
    const existing = await this.db.oAuthGrant.findUnique({ where: { userId_applicationId: { userId, applicationId } }, select: { scopes: true } });
    const all = [...new Set([...(existing?.scopes ?? []), ...scopes])];
    const grant = await this.db.oAuthGrant.upsert({
      where: { userId_applicationId: { userId, applicationId } },
      create: { userId, applicationId, scopes: all, lastUsedAt: this.now() },
      update: { scopes: all, lastUsedAt: this.now() },
    });
    await this.db.oAuthAccessToken.create({
      data: { tokenHash: hashSecret(token.accessToken), grantId: grant.id, scopes, expiresAt: token.accessTokenExpiresAt ?? this.now() },
    });
    return { ...token, client, user };
  }

  async getAccessToken(accessToken: string): Promise<OAuth2Server.Token | null> {
    const row = await this.db.oAuthAccessToken.findUnique({
      where: { tokenHash: hashSecret(accessToken) },
      include: { grant: { include: { application: true, user: { select: { deactivatedAt: true } } } } },
    });
    // A deleted (deactivated) account's applications stop with it.
    if (!row || row.grant.user.deactivatedAt) return null;
    return {
      accessToken,
      accessTokenExpiresAt: row.expiresAt,
      scope: row.scopes,
      client: toClient(row.grant.application),
      user: { id: row.grant.userId },
      grantId: row.grantId,
    };
  }

  /** One poll of a device code by its application (RFC 8628 §3.4, §3.5); an allowed code is consumed. */
  async pollDeviceCode(deviceCode: string, client: OAuthClient): Promise<DevicePoll> {
    const row = await this.db.oAuthDeviceCode.findUnique({ where: { deviceCodeHash: hashSecret(deviceCode) } });
    if (!row || row.applicationId !== client.applicationId) return { status: 'unknown' };
    const now = this.now();
    if (row.expiresAt <= now) return { status: 'expired' };
    if (row.status === 'denied') return { status: 'denied' };
    if (row.status === 'allowed' && row.userId) {
      const { count } = await this.db.oAuthDeviceCode.deleteMany({ where: { id: row.id, status: 'allowed' } });
      return count === 1 ? { status: 'allowed', userId: row.userId, scopes: row.scopes } : { status: 'unknown' };
    }
    const tooSoon = row.lastPolledAt !== null && now.getTime() - row.lastPolledAt.getTime() < row.intervalSeconds * 1000;
    await this.db.oAuthDeviceCode.update({ where: { id: row.id }, data: { lastPolledAt: now } });
    return { status: tooSoon ? 'slow_down' : 'pending' };
  }
}
