import { randomBytes, randomInt } from 'node:crypto';
import OAuth2Server from '@node-oauth/oauth2-server';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import {
  DEVICE_CODE_GRANT,
  OnAirError,
  oauthScopes,
  SHORT_CODE_ALPHABET,
  SHORT_CODE_LENGTH,
  type Application,
  type AuthorizeRequest,
  type Consent,
  type Grant,
  type OAuthScope,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { CurrentUser } from '../../http/auth-context.ts';
import { DeviceCodeGrantType } from './device-code-grant.ts';
import { allowedScopes, hashSecret, OAuthModel, type OAuthClient } from './oauth-model.ts';

const DEVICE_CODE_TTL_SECONDS = 600;
const DEVICE_POLL_INTERVAL_SECONDS = 5;

const labelled = (scopes: readonly string[]) =>
  scopes.flatMap((id) => (id in oauthScopes ? [{ id: id as OAuthScope, label: oauthScopes[id as OAuthScope] }] : []));

export interface ApplicationSettings {
  publicUrl: string;
  /** Short-code tries one account may make per window (a 6-character code must not be guessable). */
  shortCodeAttempts: number;
  shortCodeWindowSeconds: number;
  accessTokenLifetimeSeconds: number;
  rateLimitPrefix: string;
}

/**
 * Third-party applications (partner spec §2 'OAuth authorize', 'short-code authorize', Manage
 * Applications): administrators register them; creators authorize them through the
 * authorization-code flow with PKCE (RFC 6749, 7636) or a device's short code (RFC 8628); the
 * protocol work is @node-oauth/oauth2-server's, the storage and the rules ours.
 */
export class ApplicationService {
  readonly model: OAuthModel;
  readonly server: OAuth2Server;
  private readonly shortCodeLimiter: RateLimiterRedis;

  constructor(private readonly deps: { db: Db; redis: Redis; logger: Logger; settings: ApplicationSettings; now?: () => Date }) {
    this.model = new OAuthModel(deps.db, deps.now);
    this.server = new OAuth2Server({
      model: this.model,
      accessTokenLifetime: deps.settings.accessTokenLifetimeSeconds,
      authorizationCodeLifetime: 300,
      allowEmptyState: true,
      // Public clients (apps on devices and in browsers): PKCE instead of a secret.
      requireClientAuthentication: { authorization_code: false, [DEVICE_CODE_GRANT]: false },
      extendedGrantTypes: { [DEVICE_CODE_GRANT]: DeviceCodeGrantType },
    });
    this.shortCodeLimiter = new RateLimiterRedis({
      storeClient: deps.redis,
      keyPrefix: `${deps.settings.rateLimitPrefix}:short-code`,
      points: deps.settings.shortCodeAttempts,
      duration: deps.settings.shortCodeWindowSeconds,
    });
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  // ─── Administrators ───

  private toApplication(row: { id: string; clientId: string; name: string; redirectUris: string[]; scopes: string[]; createdAt: Date }): Application {
    return {
      id: row.id,
      clientId: row.clientId,
      name: row.name,
      redirectUris: row.redirectUris,
      scopes: labelled(row.scopes).map((s) => s.id),
      createdAt: row.createdAt.toISOString(),
    };
  }

  async register(admin: CurrentUser, body: { name: string; redirectUris: string[]; scopes: OAuthScope[] }): Promise<Application> {
    if (admin.userType !== 'ADMIN') throw new OnAirError('FORBIDDEN', 'Only an administrator can register applications.');
    const row = await this.deps.db.oAuthApplication.create({
      data: {
        clientId: `onair_${randomBytes(12).toString('base64url')}`,
        name: body.name,
        redirectUris: body.redirectUris,
        scopes: [...new Set(body.scopes)],
        createdById: admin.id,
      },
    });
    this.deps.logger.info({ audit: 'application-registered', applicationId: row.id, by: admin.id }, 'third-party application registered');
    return this.toApplication(row);
  }

  async list(admin: CurrentUser): Promise<Application[]> {
    if (admin.userType !== 'ADMIN') throw new OnAirError('FORBIDDEN', 'Only an administrator can see the registered applications.');
    const rows = await this.deps.db.oAuthApplication.findMany({ orderBy: { createdAt: 'desc' } });
    return rows.map((r) => this.toApplication(r));
  }

  // ─── OAuth authorize ───

  /** Partner spec §8's authorize errors, in the order an application's request is judged. */
  async checkAuthorizeRequest(request: AuthorizeRequest): Promise<{ client: OAuthClient; consent: Consent; scopes: string[] }> {
    const client = await this.model.getClient(request.client_id ?? '');
    if (!client) throw new OnAirError('OAUTH_UNKNOWN_CLIENT');
    if (!request.redirect_uri || !client.redirectUris.includes(request.redirect_uri)) throw new OnAirError('OAUTH_REDIRECT_URI_INVALID');
    if (request.response_type !== 'code') throw new OnAirError('OAUTH_RESPONSE_TYPE_INVALID');
    const scopes = allowedScopes(client, request.scope?.split(' '));
    if (!scopes) throw new OnAirError('OAUTH_SCOPE_INVALID');
    if (!request.code_challenge || request.code_challenge_method !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(request.code_challenge))
      throw new OnAirError('OAUTH_PKCE_REQUIRED');
    return {
      client,
      scopes,
      consent: { application: { name: client.name, clientId: client.id }, scopes: labelled(scopes), redirectUri: request.redirect_uri },
    };
  }

  /** The creator's answer: the redirect_uri with a one-time code (or error=access_denied), and the state. */
  async answerAuthorizeRequest(user: CurrentUser, request: AuthorizeRequest & { allowed: boolean }): Promise<string> {
    const { consent } = await this.checkAuthorizeRequest(request);
    if (!request.allowed) {
      const url = new URL(consent.redirectUri);
      url.searchParams.set('error', 'access_denied');
      if (request.state) url.searchParams.set('state', request.state);
      return url.toString();
    }
    const req = new OAuth2Server.Request({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, query: {}, body: { ...request } });
    const res = new OAuth2Server.Response({ headers: {} });
    await this.server.authorize(req, res, { authenticateHandler: { handle: () => ({ id: user.id }) } });
    const location = res.get('location') as string | undefined;
    if (!location) throw new OnAirError('INTERNAL');
    this.deps.logger.info({ audit: 'application-authorized', userId: user.id, clientId: request.client_id }, 'creator authorized an application');
    return location;
  }

  // ─── Device authorization (short code) ───

  async startDeviceAuthorization(body: { client_id: string; scope?: string | undefined }): Promise<{
    device_code: string;
    user_code: string;
    verification_uri: string;
    verification_uri_complete: string;
    expires_in: number;
    interval: number;
  }> {
    const client = await this.model.getClient(body.client_id);
    if (!client) throw new OnAirError('OAUTH_UNKNOWN_CLIENT');
    const scopes = allowedScopes(client, body.scope?.split(' '));
    if (!scopes) throw new OnAirError('OAUTH_SCOPE_INVALID');
    const deviceCode = randomBytes(32).toString('base64url');
    const userCode = Array.from({ length: SHORT_CODE_LENGTH }, () => SHORT_CODE_ALPHABET[randomInt(SHORT_CODE_ALPHABET.length)]).join('');
    await this.deps.db.oAuthDeviceCode.create({
      data: {
        deviceCodeHash: hashSecret(deviceCode),
        userCodeHash: hashSecret(userCode),
        applicationId: client.applicationId,
        scopes,
        intervalSeconds: DEVICE_POLL_INTERVAL_SECONDS,
        expiresAt: new Date(this.now().getTime() + DEVICE_CODE_TTL_SECONDS * 1000),
      },
    });
    const verification = `${this.deps.settings.publicUrl.replace(/\/+$/, '')}/partner/device`;
    return {
      device_code: deviceCode,
      user_code: userCode,
      verification_uri: verification,
      verification_uri_complete: `${verification}?code=${userCode}`,
      expires_in: DEVICE_CODE_TTL_SECONDS,
      interval: DEVICE_POLL_INTERVAL_SECONDS,
    };
  }

  /** Every short-code try counts, right or wrong: a 6-character code must not be guessable. */
  private async countShortCodeTry(user: CurrentUser): Promise<void> {
    try {
      await this.shortCodeLimiter.consume(user.id);
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        const minutes = Math.max(1, Math.ceil(err.msBeforeNext / 60_000));
        throw new OnAirError('RATE_LIMITED', `Too many codes tried. Wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`, {
          retryAfterSeconds: Math.ceil(err.msBeforeNext / 1000),
        });
      }
      throw err;
    }
  }

  private async pendingShortCode(userCode: string) {
    const row = await this.deps.db.oAuthDeviceCode.findUnique({ where: { userCodeHash: hashSecret(userCode) }, include: { application: true } });
    if (!row || row.status !== 'pending' || row.expiresAt <= this.now()) throw new OnAirError('SHORT_CODE_INVALID', undefined, { field: 'userCode' });
    return row;
  }

  async lookupShortCode(user: CurrentUser, userCode: string): Promise<Omit<Consent, 'redirectUri'>> {
    await this.countShortCodeTry(user);
    const row = await this.pendingShortCode(userCode);
    return { application: { name: row.application.name, clientId: row.application.clientId }, scopes: labelled(row.scopes) };
  }

  async answerShortCode(user: CurrentUser, userCode: string, allowed: boolean): Promise<{ allowed: boolean }> {
    await this.countShortCodeTry(user);
    const row = await this.pendingShortCode(userCode);
    const { count } = await this.deps.db.oAuthDeviceCode.updateMany({
      where: { id: row.id, status: 'pending' },
      data: { status: allowed ? 'allowed' : 'denied', userId: user.id },
    });
    if (count === 0) throw new OnAirError('SHORT_CODE_INVALID');
    if (allowed)
      this.deps.logger.info(
        { audit: 'application-authorized', userId: user.id, clientId: row.application.clientId, flow: 'device' },
        'creator authorized a device',
      );
    return { allowed };
  }

  // ─── Manage Applications ───

  async grants(userId: string): Promise<Grant[]> {
    const rows = await this.deps.db.oAuthGrant.findMany({
      where: { userId },
      orderBy: { createdAt: 'desc' },
      include: { application: { select: { name: true, clientId: true } } },
    });
    return rows.map((r) => ({
      id: r.id,
      application: r.application,
      scopes: labelled(r.scopes),
      createdAt: r.createdAt.toISOString(),
      lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
    }));
  }

  /** Revoked: every token of the grant goes with it (ON DELETE CASCADE), so the next call fails. */
  async revoke(userId: string, grantId: string): Promise<void> {
    const { count } = await this.deps.db.oAuthGrant.deleteMany({ where: { id: grantId, userId } });
    if (count === 0) throw new OnAirError('GRANT_NOT_FOUND');
    this.deps.logger.info({ audit: 'application-revoked', userId, grantId }, 'creator revoked an application');
  }

  /** What a token may read (the userinfo endpoint): null when the token is unknown, expired or revoked. */
  async userOfToken(accessToken: string): Promise<{ userId: string; scopes: string[]; username: string | null } | null> {
    const token = await this.model.getAccessToken(accessToken);
    if (!token?.accessTokenExpiresAt || token.accessTokenExpiresAt <= this.now()) return null;
    const userId = String(token.user.id);
    await this.deps.db.oAuthGrant.update({ where: { id: token.grantId as string }, data: { lastUsedAt: this.now() } });
    const profile = await this.deps.db.partnerProfile.findUnique({ where: { userId }, select: { username: true } });
    return { userId, scopes: token.scope ?? [], username: token.scope?.includes('profile:read') ? (profile?.username ?? null) : null };
  }
}
