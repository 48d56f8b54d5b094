import { z } from 'zod';

/**
 * Environment of the leases that elect one owner per platform connector among the api replicas:
 * the chats, the events feeds and the chatbots all run under them.
 */
export const leasesConfigShape = {
  /** A replica owns a connector (a chat, an events feed, a chatbot) for this long unless it renews; another takes over after. */
  PLATFORM_OWNER_LEASE_MS: z.coerce.number().int().min(1000).default(5000),
  /** How often each replica renews its connector leases and looks for live connectors without an owner. */
  PLATFORM_SUPERVISE_MS: z.coerce.number().int().min(50).default(1000),
};

/** The names these variables had when only the chat used them: still read when the new name is not set. */
export const leasesEnvFormerNames = { PLATFORM_OWNER_LEASE_MS: 'CHAT_OWNER_LEASE_MS', PLATFORM_SUPERVISE_MS: 'CHAT_SUPERVISE_MS' } as const;
