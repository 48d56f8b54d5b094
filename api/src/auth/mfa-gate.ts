import { randomBytes } from 'node:crypto';
import { createAuthMiddleware } from 'better-auth/api';
import type { BetterAuthPlugin } from 'better-auth';
import { deleteSessionCookie } from 'better-auth/cookies';
import type { Db } from '@onair/db';
import type { AuthConfig } from './config.ts';
import { recordSignIn } from './account-rules.ts';

/** Must match better-auth's two-factor plugin, whose /two-factor/verify-* endpoints read them. */
const TWO_FACTOR_COOKIE = 'two_factor';
const PENDING_SECONDS = 600;

/** Passwordless sign-ins; better-auth's two-factor plugin only gates password sign-ins. */
const gatedPaths = new Set(['/sign-in/email-otp', '/magic-link/verify', '/phone-number/verify', '/callback/:id']);
const redirectingPaths = new Set(['/magic-link/verify', '/callback/:id']);
/** Paths after which a new session means a completed sign-in. */
const signInPaths = new Set([...gatedPaths, '/two-factor/verify-totp', '/two-factor/verify-backup-code']);

/**
 * Multi-factor for every way OnAir signs in. When a user with MFA on completes the first factor,
 * the session just created is withdrawn and a pending two-factor sign-in is recorded exactly as
 * the two-factor plugin does for password sign-ins (signed `two_factor` cookie + verification
 * rows), so its /two-factor/verify-totp and /verify-backup-code finish the sign-in.
 * Completed sign-ins are then recorded (lastLoggedInAt, user type and labels).
 */
export function mfaGate(deps: { db: Db; config: AuthConfig & { PUBLIC_URL: string } }): BetterAuthPlugin {
  return {
    id: 'onair-mfa-gate',
    hooks: {
      after: [
        {
          matcher: (ctx) => signInPaths.has(ctx.path ?? ''),
          handler: createAuthMiddleware(async (ctx) => {
            const data = ctx.context.newSession;
            if (!data) return;
            const user = data.user as typeof data.user & { twoFactorEnabled?: boolean | null };
            if (!gatedPaths.has(ctx.path) || !user.twoFactorEnabled) {
              await recordSignIn(deps.db, deps.config, data.user.id);
              return;
            }
            deleteSessionCookie(ctx, true);
            await ctx.context.internalAdapter.deleteSession(data.session.token);
            ctx.context.setNewSession(null);
            const cookie = ctx.context.createAuthCookie(TWO_FACTOR_COOKIE, { maxAge: PENDING_SECONDS });
            const identifier = `2fa-${randomBytes(15).toString('base64url')}`;
            const expiresAt = new Date(Date.now() + PENDING_SECONDS * 1000);
            await ctx.context.internalAdapter.createVerificationValue({ value: data.user.id, identifier, expiresAt });
            await ctx.context.internalAdapter.createVerificationValue({ value: '0', identifier: `2fa-attempts-${identifier}`, expiresAt });
            await ctx.setSignedCookie(cookie.name, identifier, ctx.context.secret, cookie.attributes);
            const query = (ctx.query ?? {}) as Record<string, unknown>;
            if (redirectingPaths.has(ctx.path) && (ctx.path === '/callback/:id' || typeof query.callbackURL === 'string')) {
              throw ctx.redirect(new URL('/login?mfa=required', deps.config.PUBLIC_URL).toString());
            }
            return ctx.json({ twoFactorRedirect: true, twoFactorMethods: ['totp', 'backup-code'] });
          }),
        },
      ],
    },
  };
}
