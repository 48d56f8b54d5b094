import type { DestinationSettings, OAuthProvider, StreamTarget } from '@onair/protocol';

export interface PlatformTokens {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
}

export interface PlatformAccount {
  id: string;
  username: string;
  logo: string | null;
  dashboardUrl: string | null;
}

export interface Ingest {
  rtmpUrl: string;
  streamKey: string;
}

/** What a platform needs to know of a destination to act for it. */
export interface PlatformDestination {
  accessToken: string;
  accountId: string;
  settings: DestinationSettings;
  platformStreamId: string | null;
}

export interface PreparedBroadcast {
  platformBroadcastId: string | null;
  /** A fresh ingest when the platform hands one out per broadcast (Facebook live videos). */
  ingest: Ingest | null;
  platformStreamId?: string | null;
}

export interface OAuthClientConfig {
  clientId: string;
  clientSecret: string;
  authorizationUrl: string;
  tokenUrl: string;
}

/**
 * One streaming platform reached through OAuth: the authorization-code flow, the account behind a
 * token, its ingest and its broadcasts. One file per platform behind this interface, chosen from
 * the closed set of providers by `createPlatforms`.
 */
export interface Platform {
  provider: OAuthProvider;
  label: string;
  authorizeUrl(state: string, redirectUri: string): string;
  exchangeCode(code: string, redirectUri: string): Promise<PlatformTokens>;
  refresh(tokens: { accessToken: string; refreshToken: string | null }): Promise<PlatformTokens>;
  account(accessToken: string): Promise<PlatformAccount>;
  /** The ingest right after authentication, when the platform has a lasting one (Twitch key, YouTube reusable stream); null otherwise. */
  connect(destination: PlatformDestination): Promise<(Ingest & { platformStreamId: string | null }) | null>;
  /** Before going live: create or update the platform's broadcast and apply title, description and privacy. */
  prepareBroadcast(destination: PlatformDestination): Promise<PreparedBroadcast>;
  /** Facebook only: where the account may stream (timeline, pages, groups, events). */
  streamTargets?(destination: PlatformDestination): Promise<StreamTarget[]>;
}

export function expiryOf(expiresIn: unknown): Date | null {
  return typeof expiresIn === 'number' && expiresIn > 0 ? new Date(Date.now() + expiresIn * 1000) : null;
}
