import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { projectIdParamsSchema } from '../http/projects.ts';
import { CHAT_ON_SCREEN_PAGE_PREFIX } from '../scene/vertical.ts';
import { LOWER_THIRD_TEXT_MAX, chatOnAirSchema, type ChatOnAir } from '../pipeline/lower-third.ts';
import { chatPlatformSchema } from './chat.ts';

/**
 * Chat on screen (issue 39 item 4): a host puts one chat message — from a platform's chat or from
 * the room's (guest) chat — in the program as a lower third, with the sender's name and platform,
 * and takes it off again, or it goes off by itself after a set time. The message on screen belongs
 * to the project (every studio of it sees the same, a reload keeps it); the picture is drawn by a
 * session's pipeline itself (issue 53 item 1: an SVG drawn over the program by the media worker, on
 * both canvases, so it reaches every destination and the recording within a frame or two of the
 * worker's word); putting a message on or off changes no scene and restarts nothing. The worker
 * reports what it has on air (chatOnAirSchema), and the studio says 'On screen' from that report.
 * The overlay page (CHAT_ON_SCREEN_OVERLAY_PATH) still draws the same lower third for a creator's own
 * streaming tool.
 */

/** How long a message stays on screen unless the host says otherwise. */
export const CHAT_ON_SCREEN_DEFAULT_MS = 15_000;
export const CHAT_ON_SCREEN_MIN_MS = 3_000;
export const CHAT_ON_SCREEN_MAX_MS = 600_000;
/** The choices the studio offers; null keeps the message on screen until it is taken off. */
export const chatOnScreenDurations = [10_000, 15_000, 30_000, 60_000, null] as const;
/** Longest text drawn: a longer message is cut with an ellipsis (a lower third holds a few lines). */
export const CHAT_ON_SCREEN_TEXT_MAX = LOWER_THIRD_TEXT_MAX;

/** Where a message on screen comes from: a platform's chat, or the chat of the room (host, guests). */
export const chatOnScreenKinds = ['platform', 'guest'] as const;
export const chatOnScreenKindSchema = z.enum(chatOnScreenKinds);
export type ChatOnScreenKind = z.infer<typeof chatOnScreenKindSchema>;

/** The message on screen, as the studio and the overlay page receive it. Every text is shown as text. */
export const chatOnScreenSchema = z.strictObject({
  kind: chatOnScreenKindSchema,
  messageId: z.uuid(),
  /** The platform of a platform message; null for a message of the room. */
  platform: chatPlatformSchema.nullable(),
  displayName: z.string().max(200),
  text: z.string().max(CHAT_ON_SCREEN_TEXT_MAX),
  shownAt: z.iso.datetime(),
  /** How long it stays on screen from when this was sent (each receiver counts down by its own clock); null: until taken off. */
  remainingMs: z.number().int().min(0).nullable(),
});
export type ChatOnScreen = z.infer<typeof chatOnScreenSchema>;

/**
 * What the api keeps in Redis per project (sessionKeys.chatOnScreen): the message as drawn, when it
 * went on, and for how long (null: until taken off); the key expires with the message.
 */
export const chatOnScreenStoredSchema = chatOnScreenSchema.omit({ remainingMs: true }).extend({ durationMs: z.number().int().min(0).nullable() });
export type ChatOnScreenStored = z.infer<typeof chatOnScreenStoredSchema>;

/** The lower third the pipeline draws, and its report of what is on air: pipeline/lower-third.ts. */
export { chatOnAirSchema, chatOnScreenDrawnSchema, type ChatOnAir, type ChatOnScreenDrawn } from '../pipeline/lower-third.ts';

/** Whether `onAir` (the pipeline's word) is this showing of the message on screen. */
export function isChatOnAir(onScreen: Pick<ChatOnScreen, 'messageId' | 'shownAt'> | null, onAir: ChatOnAir | null): boolean {
  return onScreen !== null && onAir !== null && onScreen.messageId === onAir.messageId && onScreen.shownAt === onAir.shownAt;
}

/** The text drawn for a message: whitespace runs made one space, cut to CHAT_ON_SCREEN_TEXT_MAX with an ellipsis. */
export function chatOnScreenText(content: string): string {
  const flat = content.replace(/\s+/g, ' ').trim();
  return flat.length <= CHAT_ON_SCREEN_TEXT_MAX ? flat : `${flat.slice(0, CHAT_ON_SCREEN_TEXT_MAX - 1).trimEnd()}…`;
}

/** Where the built-in overlay page is served (the studio adds it to the scene as a browser source). */
export const CHAT_ON_SCREEN_OVERLAY_PATH = `${CHAT_ON_SCREEN_PAGE_PREFIX}:projectId`;

const onScreenView = z.object({
  onScreen: chatOnScreenSchema.nullable(),
  /** What the session's pipeline last reported on air (null: nothing, or no session running). */
  onAir: chatOnAirSchema.nullable().optional(),
  /** The overlay page's address (signed): the same lower third as a page, for a creator's own streaming tool. */
  overlayUrl: z.url(),
});

export const getChatOnScreenEndpoint = defineEndpoint({
  id: 'getChatOnScreen',
  projectPermission: 'read project',
  method: 'get',
  path: '/api/v1/projects/:projectId/chat/on-screen',
  summary: 'The chat message shown in the program now, if any, and the address of the overlay page that draws it.',
  tag: 'chat',
  access: 'user',
  params: projectIdParamsSchema,
  response: onScreenView,
});

export const showChatOnScreenEndpoint = defineEndpoint({
  id: 'showChatOnScreen',
  projectPermission: 'update project',
  method: 'put',
  path: '/api/v1/projects/:projectId/chat/on-screen',
  summary:
    'Shows a chat message of the project (platform or room chat) in the program, in place of the one shown before, for durationMs (default 15 s; null: until taken off).',
  tag: 'chat',
  access: 'user',
  params: projectIdParamsSchema,
  body: z.strictObject({
    kind: chatOnScreenKindSchema,
    messageId: z.uuid(),
    durationMs: z.number().int().min(CHAT_ON_SCREEN_MIN_MS).max(CHAT_ON_SCREEN_MAX_MS).nullable().optional(),
  }),
  response: onScreenView,
});

export const hideChatOnScreenEndpoint = defineEndpoint({
  id: 'hideChatOnScreen',
  projectPermission: 'update project',
  method: 'delete',
  path: '/api/v1/projects/:projectId/chat/on-screen',
  summary: 'Takes the chat message off the program; with messageId, only if that message is the one shown (another host may have shown a newer one).',
  tag: 'chat',
  access: 'user',
  params: projectIdParamsSchema,
  query: z.strictObject({ messageId: z.uuid().optional() }),
  response: onScreenView,
});

export const chatOnScreenEndpoints = [getChatOnScreenEndpoint, showChatOnScreenEndpoint, hideChatOnScreenEndpoint] as const;
