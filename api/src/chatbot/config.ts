import { z } from 'zod';

/**
 * Environment of the chatbot (issue 22), merged into the api's config. The bot speaks in Twitch
 * chat as one bot account of the operator (the "bot identity"), whose user id and token are
 * given here; a creator makes it a moderator of their channel (Twitch requires it for removals,
 * timeouts and chat settings). Helix is TWITCH_API_URL with TWITCH_CLIENT_ID; the lease and
 * supervision timings are the leases' (PLATFORM_OWNER_LEASE_MS, PLATFORM_SUPERVISE_MS).
 */
export const chatbotConfigShape = {
  /** Run chatbots in this replica (every replica takes part in electing one owner per channel). */
  CHATBOT_RUNNERS: z.stringbool().default(true),
  /** The bot account's Twitch user id (sender_id and moderator_id of its Helix calls). */
  CHATBOT_TWITCH_USER_ID: z
    .string()
    .regex(/^\d{1,20}$/)
    .optional(),
  /** The bot account's Twitch login (its own messages in chat are not read as commands). */
  CHATBOT_TWITCH_LOGIN: z
    .string()
    .regex(/^[a-z0-9_]{1,41}$/)
    .default('onairbot'),
  /** The bot account's user access token (user:write:chat, moderator:manage:chat_messages, moderator:manage:banned_users, moderator:manage:chat_settings, moderator:read:chatters). Never logged. */
  CHATBOT_TWITCH_TOKEN: z.string().min(1).optional(),
  /** How often a running bot looks at its timers and loyalty. */
  CHATBOT_TICK_MS: z.coerce.number().int().min(10).default(1000),
  /**
   * How often a running bot asks Twitch whether its channel is live (GET /helix/streams), so timers
   * "only while live" and live earning also see streams that do not go through OnAir. One call per
   * channel per interval on the bot account's rate limit (800 a minute).
   */
  CHATBOT_LIVE_POLL_MS: z.coerce.number().int().min(100).default(60_000),
  /** Messages waiting for a bot beyond this are dropped (a flood must not eat the replica's memory). */
  CHATBOT_QUEUE_MAX: z.coerce.number().int().min(100).default(20_000),
  /** Helix calls waiting beyond this are refused (a flood of removals waits for Twitch's rate limit in a bounded line). */
  CHATBOT_HELIX_QUEUE_MAX: z.coerce.number().int().min(10).default(2000),
  /**
   * The hate-raid guard's removals a second (one Helix call per viewer: a one-second timeout
   * clears all their lines). Twitch gives the bot's token 800 points a minute for everything;
   * 5 a second leaves more than half of them for replies and the rest while a raid is purged.
   */
  CHATBOT_PURGE_PER_SECOND: z.coerce.number().min(0.1).max(13).default(5),
  /**
   * `host:port` entries a link preview may fetch although they resolve to private addresses (as
   * RENDER_ALLOWED_HOSTS for pages); every other private, loopback or link-local address is refused,
   * and the metadata address always. Names are resolved by EGRESS_DNS_SERVERS when set.
   */
  CHATBOT_PREVIEW_ALLOWED_HOSTS: z.string().default(''),
  EGRESS_DNS_SERVERS: z.string().default(''),
};

export type ChatbotConfig = z.output<z.ZodObject<typeof chatbotConfigShape>>;
