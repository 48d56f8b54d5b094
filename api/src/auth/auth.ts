import { betterAuth } from 'better-auth';
import { prismaAdapter } from 'better-auth/adapters/prisma';
import { isAPIError } from 'better-auth/api';
import { bearer, emailOTP, genericOAuth, jwt, magicLink, openAPI, phoneNumber, twoFactor } from 'better-auth/plugins';
import type { Redis } from 'ioredis';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { Mailer } from '../mail/mailer.ts';
import { codeMail, magicLinkMail } from '../mail/templates.ts';
import { DeliveryFailures } from './delivery.ts';
import { CLIENT_IP_HEADER, signInGuards } from './guards.ts';
import { DEVELOPMENT_AUTH_SECRET, isLoopbackUrl, type AuthConfig } from './config.ts';
import { mfaGate } from './mfa-gate.ts';
import { oauthProviders } from './oauth-providers.ts';
import type { SmsSender } from './sms.ts';

export const AUTH_BASE_PATH = '/api/auth';
/** E.164: a plus, a country code and up to 15 digits. */
const E164 = /^\+[1-9]\d{6,14}$/;

/**
 * The origins of PUBLIC_URL. On a loopback address the same server is also reached as
 * localhost, 127.0.0.1 and [::1] (the start command prints one, a browser may use another).
 */
function publicOrigins(publicUrl: string): string[] {
  const url = new URL(publicUrl);
  if (!isLoopbackUrl(publicUrl)) return [url.origin];
  const port = url.port ? `:${url.port}` : '';
  return [url.origin, ...['localhost', '127.0.0.1', '[::1]'].map((host) => `${url.protocol}//${host}${port}`)];
}

export interface AuthDeps {
  config: AuthConfig & { PUBLIC_URL: string };
  db: Db;
  redis: Redis;
  logger: Logger;
  mailer: Mailer;
  sms: SmsSender;
}

/**
 * What better-auth logs at error level when it refuses a client's request (answered with a 4xx):
 * origin and callback checks, unknown providers, a method or change this server does not offer,
 * forged OAuth state. Logged at info, without the client's text after the match.
 */
const CLIENT_INPUT_REFUSAL =
  /^(Invalid (origin|callbackURL|redirectURL|errorCallbackURL|newUserCallbackURL)\b|Provider not found|Provider does not support id token verification|Email is the same|State not found|No callback URL found|INVALID_CALLBACK_REQUEST|Blocked cross-site navigation login attempt|Change email( with OTP)? is disabled|Use the \/email-otp\/request-email-change endpoint|Email and password is not enabled|Delete user is disabled)/;

/** The studio spec's cookie lifetime: 7 days. */
export const SESSION_LIFETIME_SECONDS = 60 * 60 * 24 * 7;

/**
 * OnAir's sign-in: better-auth on our Prisma schema with passwordless e-mail codes, magic links,
 * SMS codes, Twitch/Google/Facebook OAuth, TOTP multi-factor with recovery codes, e-mail change
 * by code, session cookies (`onair.session_token`) and short-lived bearer JWTs for API clients.
 */
export function createAuth(deps: AuthDeps) {
  const { config, db, mailer, sms, logger } = deps;
  if (config.AUTH_SECRET === DEVELOPMENT_AUTH_SECRET && !isLoopbackUrl(config.PUBLIC_URL)) {
    throw new Error('AUTH_SECRET must be set (32+ random characters) when PUBLIC_URL is not a local address');
  }
  const codeMinutes = Math.round(config.AUTH_CODE_TTL_SECONDS / 60);
  const linkMinutes = Math.round(config.AUTH_MAGIC_LINK_TTL_SECONDS / 60);
  const authLogger = logger.child({ component: 'auth' });
  const delivery = new DeliveryFailures();

  return betterAuth({
    appName: 'OnAir',
    baseURL: config.PUBLIC_URL,
    basePath: AUTH_BASE_PATH,
    secret: config.AUTH_SECRET,
    trustedOrigins: [...publicOrigins(config.PUBLIC_URL), ...config.AUTH_TRUSTED_ORIGINS],
    database: prismaAdapter(db, { provider: 'postgresql' }),
    // Our own Redis-backed limits (signInGuards) cover every replica; better-auth's are per process.
    rateLimit: { enabled: false },
    advanced: {
      cookiePrefix: 'onair',
      // better-auth turns its origin and CSRF checks off when it detects a test runner; keep them
      // on so the tests exercise what production runs.
      disableOriginCheck: false,
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    // Studio spec §"Cookie lifetime 7 days": a session (and its cookie) lasts 7 days, renewed at
    // most once a day while it is used.
    session: { expiresIn: SESSION_LIFETIME_SECONDS, updateAge: 60 * 60 * 24 },
    // The providers' access and refresh tokens are sealed at rest with the auth secret.
    account: { accountLinking: { enabled: true, trustedProviders: ['twitch', 'google'] }, encryptOAuthTokens: true },
    user: { deleteUser: { enabled: false } },
    // OnAir is passwordless: the password routes that plugins bring along are switched off, and
    // accounts are deleted through DELETE /api/v1/users/current.
    disabledPaths: [
      '/sign-up/email',
      '/sign-in/email',
      '/sign-in/phone-number',
      '/request-password-reset',
      '/reset-password',
      '/change-password',
      '/set-password',
      '/forget-password/email-otp',
      '/email-otp/request-password-reset',
      '/email-otp/reset-password',
      '/phone-number/request-password-reset',
      '/phone-number/reset-password',
    ],
    onAPIError: {
      errorURL: new URL('/', config.PUBLIC_URL).toString(),
      // User faults (wrong code, throttled) are answers, not incidents; only service faults are logged.
      onError: (err) => {
        if (isAPIError(err) && err.statusCode < 500) return;
        const { name, message } = err instanceof Error ? err : { name: 'unknown', message: String(err) };
        authLogger.error({ name, message }, 'sign-in request failed');
      },
    },
    logger: {
      level: 'warn',
      // Only the message: better-auth's extra arguments can hold request data with tokens.
      log: (level, message) => {
        // Its origin checks log a refused client address at error level, address included: that is
        // a client's bad input (answered 403), not our fault, and the address is the client's text.
        const refused = CLIENT_INPUT_REFUSAL.exec(message);
        if (refused) authLogger.info({ source: 'better-auth' }, `${refused[0]} refused`);
        else authLogger[level === 'debug' ? 'debug' : level]({ source: 'better-auth' }, message);
      },
    },
    plugins: [
      signInGuards({ redis: deps.redis, db, config }),
      emailOTP({
        otpLength: 6,
        // Waitlist (partner spec §2): a code signs in an existing account only.
        disableSignUp: config.SIGNUP_MODE === 'waitlist',
        expiresIn: config.AUTH_CODE_TTL_SECONDS,
        allowedAttempts: 3,
        storeOTP: 'hashed',
        changeEmail: { enabled: true },
        sendVerificationOTP: async ({ email, otp, type }, ctx) => {
          await delivery.track(ctx?.request, () => mailer.send(codeMail(email, otp, type, codeMinutes)));
        },
      }),
      magicLink({
        expiresIn: config.AUTH_MAGIC_LINK_TTL_SECONDS,
        disableSignUp: config.SIGNUP_MODE === 'waitlist',
        storeToken: 'hashed',
        sendMagicLink: async ({ email, url }, ctx) => {
          await delivery.track(ctx?.request, () => mailer.send(magicLinkMail(email, url, linkMinutes)));
        },
      }),
      phoneNumber({
        otpLength: 6,
        expiresIn: config.AUTH_CODE_TTL_SECONDS,
        allowedAttempts: 3,
        phoneNumberValidator: (value) => E164.test(value),
        sendOTP: async ({ phoneNumber: to, code }, ctx) => {
          await delivery.track(ctx?.request, () => sms.send(to, `Your OnAir code is ${code}. It expires in ${codeMinutes} minutes.`));
        },
      }),
      twoFactor({
        issuer: 'OnAir',
        allowPasswordless: true,
        backupCodeOptions: { amount: 10, length: 10, storeBackupCodes: 'encrypted' },
        accountLockout: { enabled: true, maxFailedAttempts: 5, durationSeconds: 300 },
      }),
      genericOAuth({
        config: oauthProviders(config, async (providerId, accountId, login) => {
          await db.platformLogin.upsert({
            where: { providerId_accountId: { providerId, accountId } },
            create: { providerId, accountId, login },
            update: { login },
          });
        }),
      }),
      bearer(),
      jwt({ jwt: { expirationTime: `${config.API_TOKEN_TTL_SECONDS}s`, issuer: config.PUBLIC_URL, audience: config.PUBLIC_URL } }),
      // The sign-in routes' own OpenAPI document at /api/auth/open-api/generate-schema (the
      // /api/v1 one is built from protocol's contracts); no reference page, which loads from a CDN.
      openAPI({ disableDefaultReference: true }),
      mfaGate({ db, config }),
      delivery.plugin(),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
