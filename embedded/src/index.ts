export { startStack, repoRoot, type RunningStack, type StackOptions } from './stack.ts';
export { startEmbeddedPostgres, type RunningService } from './postgres.ts';
export { startRedisServer } from './redis.ts';
export { freePort, waitFor } from './ports.ts';
export { SupervisedProcess, type ProcessSpec } from './supervised-process.ts';
export { startRtmpServer, type RtmpServerOptions, type RunningRtmpServer } from './rtmp-server.ts';
export {
  startStripeDouble,
  STRIPE_DOUBLE_API_VERSION,
  type CataloguePrice,
  type RunningStripeDouble,
  type StripeDoubleOptions,
} from './stripe-double/stripe-double.ts';
export { signPayload as signStripeWebhook } from './stripe-double/webhooks.ts';
export { DEFAULT_STRIPE_CATALOGUE, stripeDoubleEnv } from './stripe-double/catalogue.ts';
export {
  startChatDoubles,
  chatDoublesEnv,
  chatDoublesEndpoints,
  controlDouble,
  startTwitchChatDouble,
  startYouTubeChatDouble,
  startFacebookChatDouble,
  type ChatDoubles,
} from './chat-doubles/index.ts';
export type { TwitchChatDouble, YouTubeChatDouble, FacebookChatDouble, TwitchChatLine } from './chat-doubles/index.ts';
export { startEventSubDouble, eventSubDoubleEnv, EventSubDouble, type EventSubEmit, type EventSubSubscription } from './eventsub-double/eventsub-double.ts';
export { startIngestServer, ingestNginxConfig, type IngestServerOptions, type RunningIngestServer } from './ingest-server.ts';
export {
  startPlatformTestMode,
  TEST_MODE_PLATFORMS,
  REAL_CLIENT_ID_VARIABLE,
  type RunningPlatformTestMode,
  type TestModePlatform,
} from './platform-test-mode.ts';
export { ConsentSignIn } from './chat-doubles/consent-sign-in.ts';
