import { z } from 'zod';

const list = z
  .string()
  .default('')
  .transform((s) =>
    s
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0),
  );

const optionalUrl = z.url().optional();

/** The development secret: refused for any PUBLIC_URL that is not a loopback address (see createAuth). */
export const DEVELOPMENT_AUTH_SECRET = 'onair-development-secret-do-not-use-in-production';

/**
 * Environment of sign-in, mail and SMS, merged into the api's config schema. Every OAuth endpoint
 * is configurable so tests (and self-hosters behind a proxy) can point a provider elsewhere.
 */
export const authConfigShape = {
  /** Signs session cookies and encrypts TOTP secrets and recovery codes; at least 32 characters. */
  AUTH_SECRET: z.string().min(32).default(DEVELOPMENT_AUTH_SECRET),
  /** Extra origins allowed to call /api/auth (the Vite dev server, for example); PUBLIC_URL always is. */
  AUTH_TRUSTED_ORIGINS: list,
  /** Accounts that are administrators (userType ADMIN), applied at every sign-in. */
  ADMIN_EMAILS: list,
  DEMO_EMAILS: list,
  DRAFT_EMAILS: list,
  TESTER_EMAILS: list,
  /** Domains whose every address carries the tester label. */
  TESTER_DOMAINS: list,
  /** Lifetime of e-mail and SMS one-time codes, in seconds. */
  AUTH_CODE_TTL_SECONDS: z.coerce.number().int().positive().default(300),
  AUTH_MAGIC_LINK_TTL_SECONDS: z.coerce.number().int().positive().default(600),
  /** Lifetime of the API bearer JWT from GET /api/auth/token, in seconds. */
  API_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(900),
  /**
   * Partner spec §2 Signup and Waitlist: 'open' lets a first sign-in make the account; 'waitlist'
   * makes no new account at sign-in (e-mail, link or platform) and newcomers leave their address.
   */
  SIGNUP_MODE: z.enum(['open', 'waitlist']).default('open'),
  /** Sign-in requests per client IP per minute (codes, links, verifications together). */
  AUTH_RATE_LIMIT_PER_IP: z.coerce.number().int().positive().default(30),
  /** Codes and links sent to one e-mail address or phone number per 10 minutes. */
  AUTH_RATE_LIMIT_PER_ADDRESS: z.coerce.number().int().positive().default(5),
  /** Redis key prefix of the sign-in rate limits. */
  AUTH_RATE_LIMIT_PREFIX: z.string().min(1).default('onair:auth-rate'),
  /** smtp://user:pass@host:587 or smtps://…; without it mail goes to the development inbox. */
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('OnAir <no-reply@onair.localhost>'),
  /**
   * The development inbox (/dev/inbox): auto = on when there is no SMTP_URL and PUBLIC_URL is a
   * loopback address, for callers on this machine only; on = for every caller; off = never.
   */
  DEV_INBOX: z.enum(['auto', 'on', 'off']).default('auto'),
  /** SMS codes are POSTed as JSON {to, text} to this URL (an SMS gateway); without it they go to the development inbox. */
  SMS_WEBHOOK_URL: optionalUrl,
  MAILING_ENABLED: z.stringbool().default(true),
  TWITCH_CLIENT_ID: z.string().optional(),
  TWITCH_CLIENT_SECRET: z.string().optional(),
  TWITCH_AUTHORIZATION_URL: z.url().default('https://id.twitch.tv/oauth2/authorize'),
  TWITCH_TOKEN_URL: z.url().default('https://id.twitch.tv/oauth2/token'),
  TWITCH_USERINFO_URL: z.url().default('https://id.twitch.tv/oauth2/userinfo'),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_AUTHORIZATION_URL: z.url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: z.url().default('https://oauth2.googleapis.com/token'),
  GOOGLE_USERINFO_URL: z.url().default('https://openidconnect.googleapis.com/v1/userinfo'),
  FACEBOOK_CLIENT_ID: z.string().optional(),
  FACEBOOK_CLIENT_SECRET: z.string().optional(),
  FACEBOOK_AUTHORIZATION_URL: z.url().default('https://www.facebook.com/v15.0/dialog/oauth'),
  FACEBOOK_TOKEN_URL: z.url().default('https://graph.facebook.com/v15.0/oauth/access_token'),
  FACEBOOK_USERINFO_URL: z.url().default('https://graph.facebook.com/v15.0/me?fields=id,name,email,picture.type(large)'),
  /**
   * Set by the one-machine stack (never by hand): the platforms whose client and endpoints above
   * are its local doubles (test mode), with the loopback control address of each double. Those
   * platforms are offered as destinations labelled test mode, not for signing in to OnAir.
   */
  PLATFORM_TEST_MODE: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (!raw) return {};
      try {
        return platformTestModeSchema.parse(JSON.parse(raw));
      } catch {
        ctx.addIssue({ code: 'custom', message: 'PLATFORM_TEST_MODE must be the JSON the one-machine stack writes' });
        return z.NEVER;
      }
    }),
};

const loopbackUrl = z.url().refine((u) => isLoopbackUrl(u), 'a platform double listens on loopback only');
const platformTestModeSchema = z.strictObject({
  twitch: z.strictObject({ chat: loopbackUrl, events: loopbackUrl }).optional(),
  youtube: z.strictObject({ chat: loopbackUrl }).optional(),
  facebook: z.strictObject({ chat: loopbackUrl }).optional(),
});
export type PlatformTestModeConfig = z.output<typeof platformTestModeSchema>;

/** Sign-in provider ids of the platforms in test mode (a double is no identity provider for OnAir accounts). */
export function testModeSignInProviders(config: Pick<AuthConfig, 'PLATFORM_TEST_MODE'>): Set<string> {
  const out = new Set<string>();
  if (config.PLATFORM_TEST_MODE.twitch) out.add('twitch');
  if (config.PLATFORM_TEST_MODE.youtube) out.add('google');
  if (config.PLATFORM_TEST_MODE.facebook) out.add('facebook');
  return out;
}

export type AuthConfig = z.output<z.ZodObject<typeof authConfigShape>>;

/** True for localhost, 127.0.0.0/8 and ::1: the machine the newcomer sits at. */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host);
}

/** Whether the development inbox is served (it shows sign-in codes, so never on a public address by default). */
export function devInboxEnabled(config: AuthConfig & { PUBLIC_URL: string }): boolean {
  if (config.DEV_INBOX === 'on') return true;
  if (config.DEV_INBOX === 'off') return false;
  return !config.SMTP_URL && isLoopbackUrl(config.PUBLIC_URL);
}
