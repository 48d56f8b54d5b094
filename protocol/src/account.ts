import { z } from 'zod';
import { planIdSchema, type PlanId } from './plans.ts';

/**
 * The account of spec §3 (User) and the rules of §4–§6 that the api and the UI both apply:
 * user types, special labels with the tester e-mail normalisation, resolution from role, and the
 * mailing settings.
 */

/** User types with the numeric codes of spec §3 (HOST=0, GUEST=1, ADMIN=2). */
export const userTypes = ['HOST', 'GUEST', 'ADMIN'] as const;
export const userTypeSchema = z.enum(userTypes);
export type UserType = z.infer<typeof userTypeSchema>;
export const userTypeCodes: Record<UserType, number> = { HOST: 0, GUEST: 1, ADMIN: 2 };

/** Special labels of spec §3, tied to particular e-mails; tester also to internal domains. */
export const userLabels = ['demo', 'draft', 'tester'] as const;
export const userLabelSchema = z.enum(userLabels);
export type UserLabel = z.infer<typeof userLabelSchema>;

/** Account roles equal plan ids (spec §6); `roleOf` in plans.ts derives one from subscriptions. */
export const accountRoleSchema = planIdSchema;
export type AccountRole = PlanId;

/**
 * The tester lookup normalisation of spec §5: lower-case, trim, drop anything after a plus sign in
 * the local part, strip dots, hyphens, underscores and spaces from the local part.
 * `Jane.Doe+demo@OnAir.dev ` and `janedoe@onair.dev` are the same tester.
 */
export function normaliseTesterEmail(email: string): string {
  const trimmed = email.trim().toLowerCase();
  const at = trimmed.lastIndexOf('@');
  const local = at === -1 ? trimmed : trimmed.slice(0, at);
  const domain = at === -1 ? '' : trimmed.slice(at + 1).trim();
  const plus = local.indexOf('+');
  const base = (plus === -1 ? local : local.slice(0, plus)).replace(/[.\-_\s]/g, '');
  return at === -1 ? base : `${base}@${domain}`;
}

/** Which e-mails carry which label; tester also covers whole domains. Lists hold raw addresses. */
export interface LabelRules {
  demo: readonly string[];
  draft: readonly string[];
  tester: readonly string[];
  testerDomains: readonly string[];
}

export function labelsForEmail(email: string, rules: LabelRules): UserLabel[] {
  const plain = email.trim().toLowerCase();
  const normalised = normaliseTesterEmail(email);
  const labels: UserLabel[] = [];
  if (rules.demo.some((e) => e.trim().toLowerCase() === plain)) labels.push('demo');
  if (rules.draft.some((e) => e.trim().toLowerCase() === plain)) labels.push('draft');
  const domain = normalised.slice(normalised.lastIndexOf('@') + 1);
  const isTester = rules.tester.some((e) => normaliseTesterEmail(e) === normalised) || rules.testerDomains.some((d) => d.trim().toLowerCase() === domain);
  if (isTester) labels.push('tester');
  return labels;
}

export const canvasResolutionSchema = z.object({ x: z.number().int(), y: z.number().int() });
export type CanvasResolution = z.infer<typeof canvasResolutionSchema>;

/** Spec §9: Free plan 1280x720, others 1920x1080. */
export function resolutionForRole(role: AccountRole): CanvasResolution {
  return role === 'Free' ? { x: 1280, y: 720 } : { x: 1920, y: 1080 };
}

// ─── Wire shapes ───

export const currentUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  /** Empty when not set: the Account page shows 'No name set'. */
  displayName: z.string(),
  /** Avatar URL, or null for the default user icon. */
  avatar: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  twoFactorEnabled: z.boolean(),
  userType: userTypeSchema,
  labels: z.array(userLabelSchema),
  role: accountRoleSchema,
  resolution: canvasResolutionSchema,
  createdAt: z.iso.datetime(),
  lastLoggedInAt: z.iso.datetime().nullable(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const DISPLAY_NAME_MAX = 100;
export const updateCurrentUserBodySchema = z.object({
  displayName: z.string().trim().min(1, 'Enter a name.').max(DISPLAY_NAME_MAX, `At most ${DISPLAY_NAME_MAX} characters.`),
});

export const mailingGroupSchema = z.object({ id: z.string(), displayName: z.string() });
export type MailingGroup = z.infer<typeof mailingGroupSchema>;

/** The mailing groups a user can opt in or out of on the Account page. */
export const mailingGroups: readonly MailingGroup[] = [
  { id: 'product-updates', displayName: 'Product updates' },
  { id: 'tips', displayName: 'Tips and tutorials' },
  { id: 'community', displayName: 'Community events' },
];

export const mailingPreferencesSchema = z.record(z.string(), z.boolean());
export type MailingPreferences = z.infer<typeof mailingPreferencesSchema>;

export const mailingSettingsSchema = z.object({
  /** Whether this installation sends mailings at all. */
  enabled: z.boolean(),
  subscribed: z.boolean(),
  preferences: mailingPreferencesSchema,
  availableGroups: z.array(mailingGroupSchema),
});
export type MailingSettings = z.infer<typeof mailingSettingsSchema>;

export const userSettingsSchema = z.object({ mailing: mailingSettingsSchema });
export type UserSettings = z.infer<typeof userSettingsSchema>;

export const mailingStatusBodySchema = z.object({ subscribed: z.boolean() });

/** A message caught by the development inbox (mail and SMS when no real sender is configured). */
export const capturedMessageSchema = z.object({
  id: z.string(),
  channel: z.enum(['email', 'sms']),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  sentAt: z.iso.datetime(),
});
export type CapturedMessage = z.infer<typeof capturedMessageSchema>;

// ─── Sign-in (better-auth's routes under /api/auth, as the UI uses them) ───

export const oauthProviderIds = ['twitch', 'google', 'facebook'] as const;
export const oauthProviderIdSchema = z.enum(oauthProviderIds);
export type OAuthProviderId = z.infer<typeof oauthProviderIdSchema>;

/** How this installation lets people sign in: OAuth providers appear only when configured. */
export const signInMethodsSchema = z.object({
  emailCode: z.boolean(),
  magicLink: z.boolean(),
  sms: z.boolean(),
  oauth: z.array(z.object({ id: oauthProviderIdSchema, name: z.string() })),
  /** Whether mail and SMS land in the development inbox (/dev/inbox) instead of being sent. */
  devInbox: z.boolean(),
  /** Partner spec §2 Signup: a first sign-in makes the account ('open'), or newcomers join the waitlist ('waitlist'). */
  signup: z.enum(['open', 'waitlist']),
});
export type SignInMethods = z.infer<typeof signInMethodsSchema>;

/** The sign-in routes the UI calls (all POST unless said otherwise). */
/** better-auth's GET get-session: the session and its user, or null when signed out (status 200 either way). */
export const authSessionAnswerSchema = z.looseObject({ user: z.looseObject({ id: z.string() }) }).nullable();

export const authRoutes = {
  sendEmailCode: '/api/auth/email-otp/send-verification-otp',
  signInWithEmailCode: '/api/auth/sign-in/email-otp',
  sendMagicLink: '/api/auth/sign-in/magic-link',
  startOAuth: '/api/auth/sign-in/social',
  verifyTotp: '/api/auth/two-factor/verify-totp',
  verifyRecoveryCode: '/api/auth/two-factor/verify-backup-code',
  requestEmailChange: '/api/auth/email-otp/request-email-change',
  confirmEmailChange: '/api/auth/email-otp/change-email',
  /** SMS codes: sign-in for an account with a verified number, or (with updatePhoneNumber) adding one. */
  sendSmsCode: '/api/auth/phone-number/send-otp',
  verifySmsCode: '/api/auth/phone-number/verify',
  signOut: '/api/auth/sign-out',
  /** GET: better-auth's session, or null (200) when signed out: a signed-out page asks nothing that answers 401. */
  getSession: '/api/auth/get-session',
  /** With a session: starts TOTP setup (answers the otpauth URI and the recovery codes); verify-totp then turns it on. */
  enableMfa: '/api/auth/two-factor/enable',
  disableMfa: '/api/auth/two-factor/disable',
  /** GET: a short-lived bearer JWT for API clients. */
  apiToken: '/api/auth/token',
} as const;

/** A first factor's answer: signed in, or multi-factor requested (no session yet). */
export const signInAnswerSchema = z.looseObject({ twoFactorRedirect: z.boolean().optional(), token: z.string().nullable().optional() });
export const oauthStartAnswerSchema = z.looseObject({ url: z.string() });
export const authAckSchema = z.looseObject({});
export const mfaSetupSchema = z.looseObject({ totpURI: z.string(), backupCodes: z.array(z.string()) });
export type MfaSetup = z.infer<typeof mfaSetupSchema>;

/** Query parameters the api puts on its redirects back to the app (magic link, OAuth, MFA). */
export const SIGN_IN_REDIRECT_PARAMS = ['error', 'error_description', 'mfa'] as const;
