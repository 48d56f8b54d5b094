import { Router } from 'express';
import { getSignInMethodsEndpoint, oauthProviderIdSchema, type SignInMethods } from '@onair/protocol';
import { devInboxEnabled, type AuthConfig } from './config.ts';
import { oauthProviders } from './oauth-providers.ts';
import { mount } from '../http/mount.ts';

/** Tells the login screen which ways in this installation offers. */
export function authMethodsRoutes(config: AuthConfig & { PUBLIC_URL: string }): Router {
  const router = Router();
  const methods: SignInMethods = {
    emailCode: true,
    magicLink: true,
    sms: true,
    oauth: oauthProviders(config).map((p) => ({ id: oauthProviderIdSchema.parse(p.providerId), name: p.name ?? p.providerId })),
    devInbox: devInboxEnabled(config),
  };
  mount(router, getSignInMethodsEndpoint, async () => methods);
  return router;
}
