import { destinationEndpoints, localStreamEndpoints } from '@onair/protocol';
import type { SecretBox } from '@onair/runtime';
import type { ProjectAccess } from '../access/project-access.ts';
import type { SessionResolver } from '../http/auth-context.ts';
import type { Platform, Running } from '../module.ts';
import type { RecordingService } from '../recordings/recording-service.ts';
import { BroadcastService } from './broadcast-service.ts';
import { DestinationEvents } from './destination-events.ts';
import { DestinationSecrets } from './destination-secrets.ts';
import { DestinationService, type ProjectAccessCheck } from './destination-service.ts';
import { LocalStreams } from './local-streams.ts';
import { startBroadcastWatch } from './index.ts';
import { PlatformAccounts } from './platform-accounts.ts';
import { createPlatforms, testModePlatformsOf } from '../platforms/index.ts';
import { destinationRoutes } from './routes.ts';
import { localStreamRoutes } from './local-stream-routes.ts';
import type { SessionControl } from './session-control.ts';
import { destinationsStudioSocket } from './studio-socket.ts';

export interface DestinationsServices {
  /** Stream keys and platform tokens, sealed at rest. */
  destinationSecrets: DestinationSecrets;
  /** Destination and broadcast changes, published to the project's studios. */
  destinationEvents: DestinationEvents;
  destinations: DestinationService;
  /** Linked platform accounts and their tokens (refreshed before they expire); read by the chat and events connectors too. */
  platformAccounts: PlatformAccounts;
  broadcasts: BroadcastService;
  /** Each Local destination's own stream on the operator's RTMP server. */
  localStreams: LocalStreams;
}

/** Destinations (RTMP and linked platforms) and the broadcasts that go out to them. */
export const destinationsModule = {
  name: 'destinations',
  build: (deps: Platform & { access: ProjectAccess; box: SecretBox | null; sessions: SessionControl; recordings: RecordingService }): DestinationsServices => {
    const { config, db, redis, logger } = deps;
    const assertProjectAccess: ProjectAccessCheck = (user, projectId) => deps.access.require(user, projectId, 'read project');
    const destinationSecrets = new DestinationSecrets(deps.box);
    const destinationEvents = new DestinationEvents(redis, logger);
    const platforms = createPlatforms(config);
    const rtmpPolicy = { allowPrivate: config.ALLOW_PRIVATE_RTMP, localRtmpUrl: config.LOCAL_RTMP_URL };
    const localStreams = new LocalStreams({
      db,
      secrets: destinationSecrets,
      logger: logger.child({ part: 'local-stream' }),
      server: config.LOCAL_RTMP_URL ? { url: config.LOCAL_RTMP_URL, playUrl: config.LOCAL_RTMP_PLAY_URL ?? config.LOCAL_RTMP_URL } : null,
      secretsKey: config.SECRETS_KEY ?? null,
      hls: config.LOCAL_RTMP_HLS_URL ? { url: config.LOCAL_RTMP_HLS_URL, delaySeconds: config.LOCAL_RTMP_HLS_DELAY_SECONDS } : null,
    });
    const destinations = new DestinationService({
      db,
      events: destinationEvents,
      secrets: destinationSecrets,
      platforms,
      rtmpPolicy,
      local: config.LOCAL_RTMP_URL ? { url: config.LOCAL_RTMP_URL, streams: localStreams } : null,
      assertProjectAccess,
      logger,
      testModePlatforms: testModePlatformsOf(config),
    });
    const platformAccounts = new PlatformAccounts({
      db,
      redis,
      logger,
      secrets: destinationSecrets,
      platforms,
      destinations,
      publicUrl: config.PUBLIC_URL,
      refreshMarginSeconds: config.TOKEN_REFRESH_MARGIN_SECONDS,
    });
    const broadcasts = new BroadcastService({
      db,
      redis,
      logger,
      events: destinationEvents,
      secrets: destinationSecrets,
      accounts: platformAccounts,
      assertProjectAccess,
      sessions: deps.sessions,
      rtmpPolicy,
      slateMaxSeconds: config.SLATE_MAX_SECONDS,
      recordings: deps.recordings,
      localStreams,
    });
    return { destinationSecrets, destinationEvents, destinations, platformAccounts, broadcasts, localStreams };
  },
  /** `/ws`: destination events, broadcast state and output health. */
  studioSocket: { name: 'destinations', build: (c: Platform) => destinationsStudioSocket(c) },
  http: {
    routes: {
      endpoints: [...destinationEndpoints, ...localStreamEndpoints],
      mount: (c: Platform & DestinationsServices & { resolveSession: SessionResolver }) => [
        destinationRoutes({
          db: c.db,
          resolveSession: c.resolveSession,
          services: { destinations: c.destinations, accounts: c.platformAccounts, broadcasts: c.broadcasts },
          publicUrl: c.config.PUBLIC_URL,
          logger: c.logger,
        }),
        localStreamRoutes({
          db: c.db,
          resolveSession: c.resolveSession,
          destinations: c.destinations,
          localStreams: c.localStreams,
          callbackSecret: c.config.LOCAL_RTMP_CALLBACK_SECRET,
          hlsBaseUrl: c.config.LOCAL_RTMP_HLS_URL,
          logger: c.logger,
        }),
      ],
    },
  },
  jobs: {
    /** Output health to the studios, the plan's stream-duration limit. */
    broadcastWatch: { name: 'broadcast watch', start: (c: Platform & DestinationsServices): Promise<Running> => startBroadcastWatch(c) },
  },
};
