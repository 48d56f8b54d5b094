import { z } from 'zod';
import { oauthProviderSchema } from '../destinations/catalogue.ts';
import { defineEndpoint } from '../http/endpoint.ts';

// The platforms' test mode (issue 39): which platforms this server runs on local doubles, and the
// control panel that makes those doubles act as the audience of a destination's channel.

export const testModeStatusSchema = z.object({
  /** The platforms offered through their local doubles (no real account); empty when every platform is real or absent. */
  platforms: z.array(oauthProviderSchema),
});
export type TestModeStatus = z.infer<typeof testModeStatusSchema>;

/** A viewer's name as a platform would show it. */
const viewer = z
  .string()
  .trim()
  .min(1)
  .max(25)
  .regex(/^[A-Za-z0-9_][A-Za-z0-9_ ]*$/, 'Letters, digits, spaces and underscores only.');
const text = z.string().trim().min(1).max(200);

/**
 * What the audience does. `chat` works on every platform (a Twitch chat message, a YouTube live
 * chat message, a Facebook comment); follow, sub, raid and cheer are Twitch's; superChat is YouTube's.
 */
export const audienceActSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('chat'), viewer, text }),
  z.object({ kind: z.literal('follow'), viewer }),
  z.object({ kind: z.literal('sub'), viewer, message: z.string().trim().max(200), months: z.number().int().min(1).max(120) }),
  z.object({ kind: z.literal('raid'), viewer, viewers: z.number().int().min(1).max(100_000) }),
  z.object({ kind: z.literal('cheer'), viewer, message: z.string().trim().max(200), bits: z.number().int().min(1).max(100_000) }),
  z.object({
    kind: z.literal('superChat'),
    viewer,
    message: z.string().trim().max(200),
    amount: z.number().min(1).max(500),
    currency: z.enum(['USD', 'EUR', 'GBP']),
  }),
]);
export type AudienceAct = z.infer<typeof audienceActSchema>;
export type AudienceActKind = AudienceAct['kind'];

/** Which acts each platform's audience can do. */
export const audienceActsByPlatform: Record<z.infer<typeof oauthProviderSchema>, readonly AudienceActKind[]> = {
  twitch: ['chat', 'follow', 'sub', 'raid', 'cheer'],
  youtube: ['chat', 'superChat'],
  facebook: ['chat'],
};

export const audienceActBodySchema = z.object({ destinationId: z.uuid(), act: audienceActSchema });
export type AudienceActBody = z.infer<typeof audienceActBodySchema>;

export const audienceActResultSchema = z.object({
  /** Whether an OnAir connector was listening and received it (events reach OnAir only while it reads the channel). */
  received: z.boolean(),
  /** What the creator should know when it was not received (in words). */
  note: z.string().nullable(),
});
export type AudienceActResult = z.infer<typeof audienceActResultSchema>;

export const getTestModeEndpoint = defineEndpoint({
  id: 'getTestMode',
  method: 'get',
  path: '/api/v1/test-mode',
  summary: 'Which platforms this server offers in test mode (local doubles, no real account).',
  tag: 'test-mode',
  access: 'user',
  response: testModeStatusSchema,
});

export const actAsAudienceEndpoint = defineEndpoint({
  id: 'actAsAudience',
  projectPermission: 'manage broadcast',
  method: 'post',
  path: '/api/v1/projects/:projectId/test-mode/audience',
  summary: "Test mode only: a viewer chats, follows, subscribes, raids, cheers, sends a Super Chat or comments on a destination's test-mode channel.",
  tag: 'test-mode',
  access: 'user',
  params: z.object({ projectId: z.uuid() }),
  body: audienceActBodySchema,
  response: audienceActResultSchema,
});

export const testModeEndpoints = [getTestModeEndpoint, actAsAudienceEndpoint] as const;
