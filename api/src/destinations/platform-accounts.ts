import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import {
  destinationKinds,
  OnAirError,
  type AuthenticationStatus,
  type OAuthProvider,
  type PlatformPreparation,
  type StreamDestinationOption,
} from '@onair/protocol';
import type { Db, Destination } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { CurrentUser } from '../http/auth-context.ts';
import type { DestinationSecrets } from './destination-secrets.ts';
import { settingsOf, type DestinationService } from './destination-service.ts';
import type { Platform, Platforms } from '../platforms/index.ts';
import type { PlatformDestination, PlatformTokens } from '../platforms/platform.ts';
import { PlatformCallError } from '../platforms/platform-http.ts';

const STATE_TTL_SECONDS = 600;
const stateKey = (state: string) => `onair:destinations:oauth-state:${state}`;
const pendingAuthSchema = z.object({ userId: z.string(), projectId: z.uuid(), destinationId: z.uuid(), provider: z.string() });

export interface PlatformAccountsDeps {
  db: Db;
  redis: Redis;
  logger: Logger;
  secrets: DestinationSecrets;
  platforms: Platforms;
  destinations: DestinationService;
  publicUrl: string;
  refreshMarginSeconds: number;
}

/**
 * The platform side of OAuth destinations: the popup flow (authorize → callback → tokens sealed →
 * account and ingest fetched), tokens refreshed before they expire or after a 401, and the calls
 * made for the creator (Facebook targets, preparing a broadcast with its metadata). Tokens are
 * opened only inside this class, for the call at hand.
 */
export class PlatformAccounts {
  constructor(private readonly deps: PlatformAccountsDeps) {}

  redirectUri(provider: OAuthProvider): string {
    return new URL(`/api/v1/destinations/auth/${provider}/callback`, this.deps.publicUrl).toString();
  }

  private platform(provider: OAuthProvider): Platform {
    const p = this.deps.platforms[provider];
    if (!p) throw new OnAirError('DESTINATION_TYPE_UNAVAILABLE', 'This platform is not configured on this server.');
    return p;
  }

  private platformOf(row: Destination): Platform {
    const provider = destinationKinds[row.type].oauthProvider;
    if (!provider) throw new OnAirError('VALIDATION_FAILED', 'This destination does not connect through a platform login.');
    return this.platform(provider);
  }

  /** Step 1 of the popup: remember who asked for which destination under a one-time state, and send the browser to the platform. */
  async beginAuthorization(user: CurrentUser, provider: OAuthProvider, projectId: string, destinationId: string): Promise<string> {
    const row = await this.deps.destinations.get(user, projectId, destinationId);
    if (destinationKinds[row.type].oauthProvider !== provider) throw new OnAirError('VALIDATION_FAILED', 'This destination belongs to another platform.');
    const platform = this.platform(provider);
    const state = randomBytes(32).toString('base64url');
    await this.deps.redis.set(stateKey(state), JSON.stringify({ userId: user.id, projectId, destinationId, provider }), 'EX', STATE_TTL_SECONDS);
    return platform.authorizeUrl(state, this.redirectUri(provider));
  }

  /**
   * Step 2: the platform sent the browser back. The state is used once and must belong to the same
   * signed-in user; then the code becomes tokens, sealed, and the account and ingest are fetched.
   */
  async completeAuthorization(user: CurrentUser, provider: OAuthProvider, query: { code?: string; state?: string; error?: string }): Promise<string> {
    if (!query.state) throw new OnAirError('VALIDATION_FAILED', 'The platform answer has no state.');
    const raw = await this.deps.redis.getdel(stateKey(query.state));
    const pending = raw ? pendingAuthSchema.safeParse(JSON.parse(raw)) : null;
    if (!pending?.success || pending.data.provider !== provider || pending.data.userId !== user.id) {
      throw new OnAirError('VALIDATION_FAILED', 'This sign-in to the platform expired or was not started here. Try again.');
    }
    const { projectId, destinationId } = pending.data;
    if (query.error || !query.code) throw new OnAirError('OAUTH_DENIED', 'You cancelled the connection at the platform.');
    const platform = this.platform(provider);
    const row = await this.deps.destinations.get(user, projectId, destinationId);
    const tokens = await this.call(platform, () => platform.exchangeCode(query.code!, this.redirectUri(provider)));
    const account = await this.call(platform, () => platform.account(tokens.accessToken));
    const ingest = await this.call(platform, () =>
      platform.connect({ accessToken: tokens.accessToken, accountId: account.id, settings: settingsOf(row), platformStreamId: row.platformStreamId }),
    );
    const updated = await this.deps.db.destination.update({
      where: { id: row.id },
      data: {
        ...this.sealedTokens(row.id, tokens),
        name: account.username,
        username: account.username,
        logo: account.logo,
        dashboardUrl: account.dashboardUrl,
        platformAccountId: account.id,
        ...(ingest
          ? { rtmpUrl: ingest.rtmpUrl, ...this.deps.secrets.streamKeyColumns(row.id, ingest.streamKey), platformStreamId: ingest.platformStreamId }
          : {}),
      },
    });
    this.deps.logger.info({ projectId, destinationId, provider }, 'destination authenticated');
    await this.deps.destinations.emit('Authenticated', updated);
    return destinationId;
  }

  private sealedTokens(destinationId: string, tokens: PlatformTokens) {
    return {
      accessTokenEnc: this.deps.secrets.seal(destinationId, 'accessToken', tokens.accessToken),
      refreshTokenEnc: this.deps.secrets.sealOrNull(destinationId, 'refreshToken', tokens.refreshToken),
      tokenExpiresAt: tokens.expiresAt,
    };
  }

  /** Platform failures become catalogue errors in the creator's words. */
  private async call<T>(platform: Platform, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof PlatformCallError) throw err.toOnAirError(platform.label);
      throw err;
    }
  }

  /**
   * Forgets tokens the platform no longer accepts: the destination shows as needing
   * authentication (spec §8 warning) until the creator authenticates again.
   */
  private async dropTokens(row: Destination): Promise<void> {
    const updated = await this.deps.db.destination.update({
      where: { id: row.id },
      data: { accessTokenEnc: null, refreshTokenEnc: null, tokenExpiresAt: null },
    });
    this.deps.logger.info({ projectId: row.projectId, destinationId: row.id }, 'platform tokens refused; destination needs authentication');
    await this.deps.destinations.emit('Changed', updated);
  }

  private async refreshRow(row: Destination, platform: Platform): Promise<Destination> {
    if (!row.accessTokenEnc) throw new OnAirError('DESTINATION_AUTH_REQUIRED', `Your ${platform.label} account requires authentication.`);
    const current = {
      accessToken: this.deps.secrets.open(row.id, 'accessToken', row.accessTokenEnc),
      refreshToken: row.refreshTokenEnc ? this.deps.secrets.open(row.id, 'refreshToken', row.refreshTokenEnc) : null,
    };
    let tokens: PlatformTokens;
    try {
      tokens = await platform.refresh(current);
    } catch (err) {
      if (err instanceof PlatformCallError && err.status >= 400 && err.status < 500) {
        await this.dropTokens(row);
        throw new OnAirError('DESTINATION_AUTH_REQUIRED', `Your ${platform.label} account requires authentication.`);
      }
      throw err instanceof PlatformCallError ? err.toOnAirError(platform.label) : err;
    }
    return this.deps.db.destination.update({ where: { id: row.id }, data: this.sealedTokens(row.id, tokens) });
  }

  private expiresSoon(row: Destination): boolean {
    return row.tokenExpiresAt !== null && row.tokenExpiresAt.getTime() - Date.now() < this.deps.refreshMarginSeconds * 1000;
  }

  /**
   * Runs a platform call with the destination's token: refreshed first when it expires soon, and
   * once more after a 401; a platform that still refuses makes the destination need authentication.
   */
  private async withToken<T>(row: Destination, fn: (d: PlatformDestination) => Promise<T>): Promise<{ result: T; row: Destination }> {
    const platform = this.platformOf(row);
    if (!row.accessTokenEnc) throw new OnAirError('DESTINATION_AUTH_REQUIRED', `Your ${platform.label} account requires authentication.`);
    let current = this.expiresSoon(row) ? await this.refreshRow(row, platform) : row;
    const as = (r: Destination): PlatformDestination => ({
      accessToken: this.deps.secrets.open(r.id, 'accessToken', r.accessTokenEnc!),
      accountId: r.platformAccountId ?? '',
      settings: settingsOf(r),
      platformStreamId: r.platformStreamId,
    });
    try {
      return { result: await fn(as(current)), row: current };
    } catch (err) {
      if (!(err instanceof PlatformCallError)) throw err;
      if (err.status !== 401) throw err.toOnAirError(platform.label);
    }
    current = await this.refreshRow(current, platform);
    try {
      return { result: await fn(as(current)), row: current };
    } catch (err) {
      if (err instanceof PlatformCallError && err.status === 401) {
        await this.dropTokens(current);
        throw new OnAirError('DESTINATION_AUTH_REQUIRED', `Your ${platform.label} account requires authentication.`);
      }
      throw err instanceof PlatformCallError ? err.toOnAirError(platform.label) : err;
    }
  }

  /**
   * A chat connector's token of a destination, opened for the connection at hand and never logged:
   * refreshed first when it expires soon; null when the destination holds none.
   */
  async chatToken(destinationId: string): Promise<string | null> {
    const row = await this.deps.db.destination.findUnique({ where: { id: destinationId } });
    if (!row?.accessTokenEnc) return null;
    let current = row;
    if (this.expiresSoon(row)) {
      try {
        current = await this.refreshRow(row, this.platformOf(row));
      } catch (err) {
        if (err instanceof OnAirError && err.code === 'DESTINATION_AUTH_REQUIRED') return null;
        // The platform's token endpoint is down: the current token may still work.
      }
    }
    return current.accessTokenEnc ? this.deps.secrets.open(current.id, 'accessToken', current.accessTokenEnc) : null;
  }

  /**
   * The platform refused a chat connector's token (Twitch 'Login authentication failed', YouTube
   * 401): one refresh. Null when that fails too; a refresh the platform refuses leaves the
   * destination needing authentication, as everywhere else.
   */
  async refreshChatToken(destinationId: string): Promise<string | null> {
    const row = await this.deps.db.destination.findUnique({ where: { id: destinationId } });
    if (!row?.accessTokenEnc) return null;
    try {
      const updated = await this.refreshRow(row, this.platformOf(row));
      return updated.accessTokenEnc ? this.deps.secrets.open(updated.id, 'accessToken', updated.accessTokenEnc) : null;
    } catch (err) {
      this.deps.logger.info({ destinationId, code: err instanceof OnAirError ? err.code : 'unknown' }, 'chat token refresh failed');
      return null;
    }
  }

  /** §7 refresh-token: refresh now; the token stays here. */
  async refreshNow(user: CurrentUser, projectId: string, destinationId: string): Promise<AuthenticationStatus & { tokenExpiresAt: string | null }> {
    const row = await this.deps.destinations.get(user, projectId, destinationId);
    const updated = await this.refreshRow(row, this.platformOf(row));
    return { destinationId, authenticated: true, tokenExpiresAt: updated.tokenExpiresAt?.toISOString() ?? null };
  }

  /** §7 ensure-authentication: refresh what expires soon; report which OAuth destinations need the creator. */
  async ensureAuthentication(user: CurrentUser, projectId: string): Promise<AuthenticationStatus[]> {
    const { destinations } = await this.deps.destinations.list(user, projectId);
    const out: AuthenticationStatus[] = [];
    for (const view of destinations) {
      if (destinationKinds[view.type].connection !== 'oauth') continue;
      const row = await this.deps.destinations.get(user, projectId, view.id);
      let authenticated = row.accessTokenEnc !== null;
      if (authenticated && this.expiresSoon(row)) {
        try {
          await this.refreshRow(row, this.platformOf(row));
        } catch (err) {
          if (err instanceof OnAirError && err.code === 'DESTINATION_AUTH_REQUIRED') authenticated = false;
          else throw err;
        }
      }
      out.push({ destinationId: row.id, authenticated });
    }
    return out;
  }

  /** §7 stream-destinations: a Facebook destination's targets; those another Facebook destination uses are disabled (§5). */
  async streamTargets(user: CurrentUser, projectId: string, destinationId: string): Promise<StreamDestinationOption[]> {
    const row = await this.deps.destinations.get(user, projectId, destinationId);
    if (row.type !== 'Facebook') throw new OnAirError('VALIDATION_FAILED', 'Only Facebook destinations have stream targets.');
    const platform = this.platformOf(row);
    const { result } = await this.withToken(row, (d) => platform.streamTargets!(d));
    const used = await this.deps.destinations.usedFacebookTargets(projectId, row.id);
    return result.map((t) => ({ ...t, disabled: used.has(t.id) }));
  }

  /**
   * §7 start-broadcast: for every enabled OAuth destination, create or update the platform's
   * broadcast with its metadata and take the ingest it hands out. A destination that fails is
   * reported (and left out of the broadcast by the caller); the others go on.
   */
  async prepareBroadcasts(user: CurrentUser, projectId: string): Promise<PlatformPreparation[]> {
    await this.deps.destinations.list(user, projectId);
    const rows = await this.deps.db.destination.findMany({ where: { projectId, enabled: true }, orderBy: { createdAt: 'asc' } });
    const out: PlatformPreparation[] = [];
    for (const row of rows) {
      const kind = destinationKinds[row.type];
      if (kind.connection !== 'oauth') continue;
      try {
        if (row.type === 'Facebook') await this.deps.destinations.assertTargetFree(projectId, row.id, settingsOf(row).streamDestination);
        const platform = this.platformOf(row);
        const { result, row: current } = await this.withToken(row, (d) => platform.prepareBroadcast(d));
        await this.deps.db.destination.update({
          where: { id: current.id },
          data: {
            platformBroadcastId: result.platformBroadcastId,
            ...(result.platformStreamId !== undefined ? { platformStreamId: result.platformStreamId } : {}),
            ...(result.ingest ? { rtmpUrl: result.ingest.rtmpUrl, ...this.deps.secrets.streamKeyColumns(row.id, result.ingest.streamKey) } : {}),
          },
        });
        out.push({ destinationId: row.id, ok: true, platformBroadcastId: result.platformBroadcastId });
      } catch (err) {
        if (!(err instanceof OnAirError)) throw err;
        if (err.fault === 'service') this.deps.logger.warn({ projectId, destinationId: row.id, code: err.code }, 'preparing a platform broadcast failed');
        out.push({ destinationId: row.id, ok: false, platformBroadcastId: null, error: err.message });
      }
    }
    return out;
  }
}
