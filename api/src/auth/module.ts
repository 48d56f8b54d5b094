import { Router } from 'express';
import { getSignInMethodsEndpoint, joinWaitlistEndpoint, listDevInboxEndpoint } from '@onair/protocol';
import type { SessionResolver } from '../http/auth-context.ts';
import { bodyParsing } from '../http/body.ts';
import { devInboxRoutes } from '../mail/dev-inbox-routes.ts';
import { middleware, type Platform } from '../module.ts';
import { AUTH_BASE_PATH } from './auth.ts';
import { devInboxEnabled } from './config.ts';
import { authHandler, createAccounts, resolveSessionUserId, type Accounts } from './index.ts';
import { authMethodsRoutes, waitlistRoutes } from './methods-routes.ts';

export interface AuthServices {
  /** Sign-in with its mail and SMS senders. */
  accounts: Accounts;
  /** The signed-in user of a request (the session cookie), shared by every route and /ws. */
  resolveSession: SessionResolver;
}

type AuthDeps = Pick<Platform, 'config' | 'db' | 'redis' | 'logger'>;

/** Sign-in (better-auth) with its methods and the development inbox; the account's own calls are accounts/'s. */
export const authModule = {
  name: 'auth',
  build: (deps: AuthDeps): AuthServices => {
    const accounts = createAccounts(deps);
    return { accounts, resolveSession: (req) => resolveSessionUserId(accounts.auth, req) };
  },
  http: {
    // Sign-in bodies are small: they are read here, under their own limit and the text rule, and
    // better-auth takes the parsed body instead of reading the stream itself.
    signIn: middleware((c: Pick<Platform, 'config'> & AuthServices) => {
      const router = Router();
      router.use(AUTH_BASE_PATH, ...bodyParsing({ limitBytes: c.config.AUTH_MAX_BODY_BYTES, forms: true }));
      router.all(`${AUTH_BASE_PATH}/{*path}`, authHandler(c.accounts.auth));
      return router;
    }),
    signInMethods: {
      endpoints: [getSignInMethodsEndpoint, joinWaitlistEndpoint],
      mount: (c: Pick<Platform, 'config' | 'db' | 'logger'>) => [authMethodsRoutes(c.config), waitlistRoutes(c)],
    },
    /** Mounted only when mail is captured instead of sent (devInboxEnabled); listed in the OpenAPI document always. */
    devInbox: {
      endpoints: [listDevInboxEndpoint],
      mount: (c: Pick<Platform, 'config'> & AuthServices) =>
        devInboxEnabled(c.config) ? devInboxRoutes(c.accounts.inbox, { anyClient: c.config.DEV_INBOX === 'on' }) : [],
    },
  },
};
