import { z } from 'zod';
import {
  capturedMessageSchema,
  currentUserSchema,
  mailingPreferencesSchema,
  mailingSettingsSchema,
  mailingStatusBodySchema,
  signInMethodsSchema,
  updateCurrentUserBodySchema,
  userSettingsSchema,
} from '../account.ts';
import { defineEndpoint } from './endpoint.ts';

// The account calls of spec §7. Sign-in itself runs under /api/auth/* (better-auth's own routes).

export const getCurrentUserEndpoint = defineEndpoint({
  id: 'getCurrentUser',
  method: 'get',
  path: '/api/v1/users/current',
  summary: 'The signed-in user: profile, user type, labels, role and resolution derived from the subscription.',
  tag: 'users',
  access: 'user',
  response: currentUserSchema,
});

export const updateCurrentUserEndpoint = defineEndpoint({
  id: 'updateCurrentUser',
  method: 'patch',
  path: '/api/v1/users/current',
  summary: 'Change the display name.',
  tag: 'users',
  access: 'user',
  body: updateCurrentUserBodySchema,
  response: currentUserSchema,
});

export const deleteCurrentUserEndpoint = defineEndpoint({
  id: 'deleteCurrentUser',
  method: 'delete',
  path: '/api/v1/users/current',
  summary: 'Delete the account with everything it owns, and end its sessions.',
  tag: 'users',
  access: 'user',
  response: z.null(),
  successStatus: 204,
});

export const getUserSettingsEndpoint = defineEndpoint({
  id: 'getUserSettings',
  method: 'get',
  path: '/api/v1/users/settings',
  summary: 'Settings of the signed-in user: mailing (enabled, subscribed, preferences, available groups).',
  tag: 'users',
  access: 'user',
  response: userSettingsSchema,
});

export const updateMailingPreferencesEndpoint = defineEndpoint({
  id: 'updateMailingPreferences',
  method: 'post',
  path: '/api/v1/users/current/mailing-preferences',
  summary: 'Set the mailing groups (map of group id to boolean); unknown group ids are refused.',
  tag: 'users',
  access: 'user',
  body: mailingPreferencesSchema,
  response: mailingSettingsSchema,
});

export const updateMailingStatusEndpoint = defineEndpoint({
  id: 'updateMailingStatus',
  method: 'post',
  path: '/api/v1/users/current/mailing-status',
  summary: 'Subscribe to or unsubscribe from the mailing list.',
  tag: 'users',
  access: 'user',
  body: mailingStatusBodySchema,
  response: mailingSettingsSchema,
});

export const devInboxQuerySchema = z.object({ to: z.string().optional() });

export const listDevInboxEndpoint = defineEndpoint({
  id: 'listDevInbox',
  method: 'get',
  path: '/api/v1/dev/inbox',
  summary: 'Development only: mail and SMS caught instead of sent (newest first). Absent when a real mail server is configured.',
  tag: 'dev',
  access: 'public',
  query: devInboxQuerySchema,
  response: z.object({ messages: z.array(capturedMessageSchema) }),
});

export const joinWaitlistBodySchema = z.object({ email: z.string().trim().toLowerCase().max(254).pipe(z.email('Enter a valid email address')) });
/** The same answer whether or not the address was already on the list (it tells nobody who signed up). */
export const joinWaitlistAnswerSchema = z.object({ waitlisted: z.literal(true) });

/** Partner spec §2 Waitlist: while new accounts are not open, a newcomer leaves their address. */
export const joinWaitlistEndpoint = defineEndpoint({
  id: 'joinWaitlist',
  method: 'post',
  path: '/api/v1/public/waitlist',
  summary: 'Join the waitlist with an e-mail address (only while this installation takes new accounts through the waitlist).',
  tag: 'auth',
  access: 'public',
  body: joinWaitlistBodySchema,
  response: joinWaitlistAnswerSchema,
  successStatus: 202,
});

export const getSignInMethodsEndpoint = defineEndpoint({
  id: 'getSignInMethods',
  method: 'get',
  path: '/api/v1/auth/methods',
  summary: 'How this installation lets people sign in (e-mail code, magic link, SMS, configured OAuth providers).',
  tag: 'auth',
  access: 'public',
  response: signInMethodsSchema,
});
