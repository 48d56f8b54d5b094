import { Router } from 'express';
import { getSignInMethodsEndpoint, joinWaitlistEndpoint, OnAirError, oauthProviderIdSchema, type SignInMethods } from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import { devInboxEnabled, type AuthConfig } from './config.ts';
import { oauthProviders } from './oauth-providers.ts';
import { mount, Reply } from '../http/mount.ts';

/** Tells the login screen which ways in this installation offers. */
export function authMethodsRoutes(config: AuthConfig & { PUBLIC_URL: string }): Router {
  const router = Router();
  const methods: SignInMethods = {
    emailCode: true,
    magicLink: true,
    sms: true,
    oauth: oauthProviders(config).map((p) => ({ id: oauthProviderIdSchema.parse(p.providerId), name: p.name ?? p.providerId })),
    devInbox: devInboxEnabled(config),
    signup: config.SIGNUP_MODE,
  };
  mount(router, getSignInMethodsEndpoint, async () => methods);
  return router;
}

/**
 * Partner spec §2 Waitlist: an address joins once (joining again changes nothing and answers the
 * same); only while SIGNUP_MODE is 'waitlist' (otherwise signing up is open and this is 404).
 */
export function waitlistRoutes(deps: { config: AuthConfig; db: Db; logger: Logger }): Router {
  const router = Router();
  mount(router, joinWaitlistEndpoint, async ({ body }) => {
    if (deps.config.SIGNUP_MODE !== 'waitlist') throw new OnAirError('NOT_FOUND', 'Signing up is open: create your account on the Signup page.');
    const added = await deps.db.waitlistEntry.createMany({ data: [{ email: body.email }], skipDuplicates: true });
    if (added.count > 0) deps.logger.info({ domain: body.email.slice(body.email.lastIndexOf('@') + 1) }, 'waitlist joined');
    return new Reply(202, { waitlisted: true as const });
  });
  return router;
}
