import { z } from 'zod';
import { permissionGroupSchema } from '../channel-permissions.ts';

// Spec §3 "Collaborator invite", §4 invite states, §5 validation, §6 roles.

export const inviteStates = ['pending', 'declined', 'accepted'] as const;
export const inviteStateSchema = z.enum(inviteStates);
export type InviteState = z.infer<typeof inviteStateSchema>;

/** Spec §9: a Twitch username is under 42 characters. */
export const TWITCH_USERNAME_MAX = 41;
/** Spec §9: a general message is at most 480 characters. */
export const INVITE_MESSAGE_MAX = 480;

export const inviteEmailSchema = z.string().trim().toLowerCase().pipe(z.email('Enter a valid email address'));
export const twitchUsernameSchema = z
  .string()
  .trim()
  .regex(new RegExp(`^[A-Za-z0-9_]{1,${TWITCH_USERNAME_MAX}}$`), 'Keep the text under 42 characters and use only Latin letters')
  .regex(/^[A-Za-z0-9][A-Za-z0-9_]{3,}$/, 'Enter a valid Twitch username')
  .transform((s) => s.toLowerCase());

export const inviteeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('email'), email: inviteEmailSchema }),
  z.object({ kind: z.literal('twitch'), username: twitchUsernameSchema }),
]);
export type Invitee = z.infer<typeof inviteeSchema>;

const permissionsSchema = z
  .array(permissionGroupSchema)
  .min(1, 'Choose at least one permission')
  .transform((groups) => [...new Set(groups)]);

export const createInviteBodySchema = z.object({
  invitee: inviteeSchema,
  message: z
    .string()
    .trim()
    .max(INVITE_MESSAGE_MAX, `Keep the message under ${INVITE_MESSAGE_MAX + 1} characters`)
    .default(''),
  permissions: permissionsSchema,
});
export type CreateInviteBody = z.input<typeof createInviteBodySchema>;

export const updateInviteBodySchema = z.object({ permissions: permissionsSchema });

export const inviteIdParamsSchema = z.object({ inviteId: z.uuid() });

export const sentInviteSchema = z.object({
  id: z.string(),
  invitee: z.object({ kind: z.enum(['email', 'twitch']), value: z.string() }),
  /** The collaborator's name once accepted. */
  collaboratorName: z.string().nullable(),
  message: z.string(),
  permissions: z.array(permissionGroupSchema),
  state: inviteStateSchema,
  createdAt: z.string(),
});
export type SentInvite = z.infer<typeof sentInviteSchema>;

export const receivedInviteSchema = z.object({
  id: z.string(),
  channel: z.object({ id: z.string(), name: z.string() }),
  message: z.string(),
  permissions: z.array(permissionGroupSchema),
  state: inviteStateSchema,
  createdAt: z.string(),
});
export type ReceivedInvite = z.infer<typeof receivedInviteSchema>;

export const declineByLinkBodySchema = z.object({ token: z.string().min(16).max(128) });
export const declineByLinkResponseSchema = z.object({ channelName: z.string() });
