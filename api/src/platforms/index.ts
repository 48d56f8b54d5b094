import type { OAuthProvider } from '@onair/protocol';
import type { ApiConfig } from '../config.ts';
import { facebookPlatform } from './facebook.ts';
import type { Platform } from './platform.ts';
import { twitchPlatform } from './twitch.ts';
import { youtubePlatform } from './youtube.ts';

export type Platforms = Partial<Record<OAuthProvider, Platform>>;

/** The platforms whose OAuth client the operator configured; a provider without one is not offered. */
export function createPlatforms(config: ApiConfig): Platforms {
  const out: Platforms = {};
  if (config.TWITCH_CLIENT_ID && config.TWITCH_CLIENT_SECRET) {
    out.twitch = twitchPlatform(
      {
        clientId: config.TWITCH_CLIENT_ID,
        clientSecret: config.TWITCH_CLIENT_SECRET,
        authorizationUrl: config.TWITCH_AUTHORIZATION_URL,
        tokenUrl: config.TWITCH_TOKEN_URL,
      },
      { api: config.TWITCH_API_URL, ingests: config.TWITCH_INGEST_URL },
    );
  }
  if (config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET) {
    out.youtube = youtubePlatform(
      {
        clientId: config.GOOGLE_CLIENT_ID,
        clientSecret: config.GOOGLE_CLIENT_SECRET,
        authorizationUrl: config.GOOGLE_AUTHORIZATION_URL,
        tokenUrl: config.GOOGLE_TOKEN_URL,
      },
      { api: config.YOUTUBE_API_URL },
    );
  }
  if (config.FACEBOOK_CLIENT_ID && config.FACEBOOK_CLIENT_SECRET) {
    out.facebook = facebookPlatform(
      {
        clientId: config.FACEBOOK_CLIENT_ID,
        clientSecret: config.FACEBOOK_CLIENT_SECRET,
        authorizationUrl: config.FACEBOOK_AUTHORIZATION_URL,
        tokenUrl: config.FACEBOOK_TOKEN_URL,
      },
      { graph: config.FACEBOOK_GRAPH_URL },
    );
  }
  return out;
}

/** The platforms the one-machine stack runs on its local doubles (PLATFORM_TEST_MODE), among those configured. */
export function testModePlatformsOf(config: ApiConfig): Set<OAuthProvider> {
  const configured = createPlatforms(config);
  return new Set((Object.keys(config.PLATFORM_TEST_MODE) as OAuthProvider[]).filter((p) => configured[p] !== undefined));
}

export type { Platform } from './platform.ts';
