import { z } from 'zod';
import { maximumGuestsOf } from '../plans.ts';

/**
 * Guests of a studio (spec §2 "Routes", "Invite Guests panel", §3 Guest code, §6 "Guests join by
 * link"). A project has at most one active guest link; generating a new one revokes the old. A
 * guest who opens the link and joins holds the `guest` role in that project only, through a guest
 * session of their own (a cookie), with no OnAir account.
 */

/** Spec §2: a guest link is the site origin plus /guest/ (here followed by the project id). */
export const GUEST_PAGE_PREFIX = '/guest/';
/** The query parameter that carries the token (spec §2 reads `guestToken`, and `at` in a local environment). */
export const GUEST_TOKEN_PARAM = 'guestToken';
/** A link stops admitting new guests this long after it was made (the host can always make a new one). */
export const GUEST_LINK_LIFETIME_DAYS = 30;
/** A guest session (the guest's cookie) lasts this long; the guest then opens the link again. */
export const GUEST_SESSION_HOURS = 12;
/** The cookie of a guest session; httpOnly, SameSite=Strict, never readable by the page. */
export const GUEST_SESSION_COOKIE = 'onair.guest_session';
/**
 * A request made as the guest of a link carries this header (the guest page's HTTP client sends it;
 * its socket opens `/ws?as=guest`), so a browser that is also signed in to an account still acts as
 * the guest on the guest page, and as the account everywhere else.
 */
export const GUEST_REQUEST_HEADER = 'x-onair-guest';
export const GUEST_SOCKET_QUERY = 'as=guest';
/** Guest joins allowed from one address per minute (rate-limited like sign-in). */
export const GUEST_JOINS_PER_MINUTE = 20;

/** The guest link's address for a project and token. */
export function guestLinkUrl(origin: string, projectId: string, token: string): string {
  return `${origin.replace(/\/+$/, '')}${GUEST_PAGE_PREFIX}${encodeURIComponent(projectId)}?${GUEST_TOKEN_PARAM}=${encodeURIComponent(token)}`;
}

/** How many guests a plan lets a host have in the room at once (spec §6; Free has none). */
export { maximumGuestsOf };

// ─── Display names ───

export const GUEST_NAME_MAX = 40;
/** Characters that only markup needs: a name with them is refused (it is shown as text anyway). */
const MARKUP = /[<>]/;
// Control characters (C0, DEL, C1) and bidirectional overrides make a name that lies about itself.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Why a display name is refused, in the guest's words; null when it can be used. Empty is allowed (optional). */
export function guestNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed.length > GUEST_NAME_MAX) return `Your name can be at most ${GUEST_NAME_MAX} characters long.`;
  if (MARKUP.test(trimmed)) return 'Your name cannot contain < or >.';
  if (CONTROL.test(trimmed)) return 'Your name contains characters that cannot be shown.';
  return null;
}

/** An optional display name (spec §2 Camera Settings panel); trimmed. Long input is refused before the rule reads it. */
export const guestDisplayNameSchema = z
  .string()
  // Far longer input is refused before anything else reads it, with the same words.
  .max(10 * GUEST_NAME_MAX, `Your name can be at most ${GUEST_NAME_MAX} characters long.`)
  .transform((s) => s.trim())
  .refine((s) => guestNameProblem(s) === null, { error: (issue) => guestNameProblem(String(issue.input)) ?? 'Invalid name.' });

/** A guest token as it appears in a link: `<link id>.<signature>`; anything longer is not one of ours. */
export const guestTokenSchema = z.string().min(1).max(200);

// ─── Chat in the room (spec §3 Chat message "in the room", §5, §9) ───

export const GUEST_CHAT_MAX = 200;
/** Spec §5: trimmed length 1 to 200. */
export const guestChatContentSchema = z
  .string()
  .max(4 * GUEST_CHAT_MAX, `A message can be at most ${GUEST_CHAT_MAX} characters long.`)
  .transform((s) => s.trim())
  .pipe(z.string().min(1, 'Type a message first.').max(GUEST_CHAT_MAX, `A message can be at most ${GUEST_CHAT_MAX} characters long.`));

/** Whether the send button is enabled and how the counter reads (spec §5: counter, red border over the limit). */
export function chatDraftState(draft: string): { length: number; sendable: boolean; over: boolean } {
  const length = draft.trim().length;
  return { length, sendable: length >= 1 && length <= GUEST_CHAT_MAX, over: length > GUEST_CHAT_MAX };
}

// Link segments of a message (spec §5) come from the one splitter of chat text: `linkSegments` in chat/.

export const guestChatMessageSchema = z.object({
  id: z.uuid(),
  projectId: z.uuid(),
  /** The sender's user id (an account, or a guest's id). */
  sender: z.string().min(1).max(128),
  displayName: z.string().max(200),
  role: z.string().max(32),
  content: z.string().min(1).max(GUEST_CHAT_MAX),
  timestamp: z.iso.datetime(),
});
export type GuestChatMessage = z.infer<typeof guestChatMessageSchema>;

/** Redis pub/sub channel of a project's room events (chat messages, guests joining, leaving, removed, refused). */
export const guestChannels = {
  room: (projectId: string) => `onair:projects:${projectId}:room`,
} as const;

// ─── Guests as the host sees them ───

export const guestSchema = z.object({
  id: z.uuid(),
  displayName: z.string(),
  joinedAt: z.iso.datetime(),
  /** Joined by a link that is no longer the active one (the host made a new one since). */
  byRevokedLink: z.boolean(),
});
export type Guest = z.infer<typeof guestSchema>;

/** Spec §3 Guest code: the active link's code and address. */
export const guestLinkSchema = z.object({ code: z.string(), linkUrl: z.url(), createdAt: z.iso.datetime(), expiresAt: z.iso.datetime() });
export type GuestLinkView = z.infer<typeof guestLinkSchema>;

/** What a guest learns on joining. */
export const guestJoinResultSchema = z.object({
  projectId: z.uuid(),
  projectName: z.string(),
  guestId: z.uuid(),
  displayName: z.string(),
});
export type GuestJoinResult = z.infer<typeof guestJoinResultSchema>;

/** What the guest page shows before joining: whose studio, and whether the link still works. */
export const guestLinkCheckSchema = z.object({ projectName: z.string() });
