import { z } from 'zod';
import { permissionGroupSchema } from '../channel-permissions.ts';

/** A channel is its owner's account: the channel id is the owner's user id. */
export const channelIdParamsSchema = z.object({ channelId: z.string().min(1).max(64) });

export const channelSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The caller's relation to it: the owner, or a collaborator with these groups. */
  owner: z.boolean(),
  permissions: z.array(permissionGroupSchema),
});
export type ChannelSummary = z.infer<typeof channelSummarySchema>;

export const channelStreamSchema = z.object({
  id: z.string(),
  projectName: z.string(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  /** Whole seconds on air (up to now while live). */
  durationSeconds: z.number().int().nonnegative(),
  state: z.string(),
});
export type ChannelStream = z.infer<typeof channelStreamSchema>;
