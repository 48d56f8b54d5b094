export { startStack, repoRoot, type RunningStack, type StackOptions } from './stack.ts';
export { startEmbeddedPostgres, type RunningService } from './postgres.ts';
export { startRedisServer } from './redis.ts';
export { freePort, waitFor } from './ports.ts';
export { SupervisedProcess, type ProcessSpec } from './supervised-process.ts';
export { startRtmpServer, type RtmpServerOptions, type RunningRtmpServer } from './rtmp-server.ts';
export { startStripeDouble, STRIPE_DOUBLE_API_VERSION, type CataloguePrice, type RunningStripeDouble, type StripeDoubleOptions } from './stripe-double/stripe-double.ts';
export { signPayload as signStripeWebhook } from './stripe-double/webhooks.ts';
export { DEFAULT_STRIPE_CATALOGUE, stripeDoubleEnv } from './stripe-double/catalogue.ts';
