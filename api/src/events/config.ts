import { z } from 'zod';

/**
 * Environment of the events connectors (Twitch EventSub over WebSocket), merged into the api's
 * config. Helix is TWITCH_API_URL and the OAuth client the destinations' (TWITCH_CLIENT_ID…); the
 * lease and supervision timings are the leases' (PLATFORM_OWNER_LEASE_MS, PLATFORM_SUPERVISE_MS).
 */
export const eventsConfigShape = {
  /** Run events connectors in this replica (every replica takes part in the election of owners). */
  EVENTS_CONNECTORS: z.stringbool().default(true),
  /** Twitch EventSub's WebSocket. */
  TWITCH_EVENTSUB_URL: z.url().default('wss://eventsub.wss.twitch.tv/ws'),
  /** The Client-Id EventSub's Helix calls send; TWITCH_CLIENT_ID when unset. Without either, Twitch events are off. */
  TWITCH_EVENTSUB_CLIENT_ID: z.string().optional(),
  /** The keepalive time asked of Twitch (10–600 s); a session silent for longer (plus the grace) is replaced. */
  EVENTSUB_KEEPALIVE_SECONDS: z.coerce.number().int().min(1).max(600).default(10),
  /** How long past the keepalive time a silent session is given before it counts as dead. */
  EVENTSUB_KEEPALIVE_GRACE_MS: z.coerce.number().int().min(0).default(2000),
  /** After a lost connection: the longest wait before the next one; waits back off up to it. */
  EVENTSUB_RECONNECT_MAX_MS: z.coerce.number().int().min(10).default(30_000),
};

export type EventsConfig = z.output<z.ZodObject<typeof eventsConfigShape>>;
