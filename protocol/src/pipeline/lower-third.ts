import { z } from 'zod';

/**
 * The lower third a session's pipeline draws over the program (chat on screen, issue 53 item 1),
 * in the pipeline's own terms so that pipeline/ needs nothing of chat/ (chat/on-screen.ts builds its
 * messages from these): which showing of which message, the platform whose mark it carries, the
 * sender's name and the text, each drawn as text.
 */
export const LOWER_THIRD_TEXT_MAX = 280;
/** The platforms whose mark a lower third can carry: chat's platforms (chat/chat.ts checks they are the same). */
export const lowerThirdPlatforms = ['twitch', 'youtube', 'facebook'] as const;

export const chatOnScreenDrawnSchema = z.strictObject({
  messageId: z.uuid(),
  /** The platform of a platform message; null for a message of the room. */
  platform: z.enum(lowerThirdPlatforms).nullable(),
  displayName: z.string().max(200),
  text: z.string().max(LOWER_THIRD_TEXT_MAX),
  /** Which showing of the message. */
  shownAt: z.iso.datetime(),
});
export type ChatOnScreenDrawn = z.infer<typeof chatOnScreenDrawnSchema>;

/** Which showing of which message the session's pipeline has on air (its report), so the studio says 'On screen' when it is. */
export const chatOnAirSchema = z.object({ messageId: z.uuid(), shownAt: z.iso.datetime() });
export type ChatOnAir = z.infer<typeof chatOnAirSchema>;
