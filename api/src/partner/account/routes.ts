import { Router } from 'express';
import {
  completeOnboardingEndpoint,
  disconnectLoginMethodEndpoint,
  getAvatarEndpoint,
  getPartnerAccountEndpoint,
  removeAvatarEndpoint,
  updateEmailNotificationsEndpoint,
  updatePersonalInfoEndpoint,
  uploadAvatarEndpoint,
} from '@onair/protocol';
import { getCurrentUser } from '../../http/auth-context.ts';
import { FileReply, mount } from '../../http/mount.ts';
import type { AccountService } from './account-service.ts';

/** Get Started and Settings › Personal information, Integrations, Email notifications: the caller's own account. */
export function accountRoutes(accounts: AccountService): Router {
  const router = Router();
  mount(router, getPartnerAccountEndpoint, async (_input, { req }) => accounts.get(getCurrentUser(req).id));
  mount(router, completeOnboardingEndpoint, async ({ body }, { req }) => accounts.completeOnboarding(getCurrentUser(req).id, body));
  mount(router, updatePersonalInfoEndpoint, async ({ body }, { req }) => accounts.updatePersonalInfo(getCurrentUser(req).id, body));
  mount(router, updateEmailNotificationsEndpoint, async ({ body }, { req }) => accounts.updateEmailNotifications(getCurrentUser(req).id, body));
  mount(router, disconnectLoginMethodEndpoint, async ({ params }, { req }) => accounts.disconnect(getCurrentUser(req).id, params.providerId));
  mount(router, uploadAvatarEndpoint, async ({ body }, { req }) => accounts.uploadAvatar(getCurrentUser(req).id, body.dataUrl));
  mount(router, removeAvatarEndpoint, async (_input, { req }) => accounts.removeAvatar(getCurrentUser(req).id));
  mount(router, getAvatarEndpoint, async ({ params }) => {
    const avatar = await accounts.avatarOf(params.userId);
    return new FileReply('avatar', avatar.type, avatar.bytes, 'inline');
  });
  return router;
}
