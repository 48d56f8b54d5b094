import {
  authAckSchema,
  authRoutes,
  deleteCurrentUserEndpoint,
  getCurrentUserEndpoint,
  getUserSettingsEndpoint,
  listDevInboxEndpoint,
  mfaSetupSchema,
  updateCurrentUserEndpoint,
  updateMailingPreferencesEndpoint,
  updateMailingStatusEndpoint,
  type CapturedMessage,
  type MailingPreferences,
  type MfaSetup,
} from '@onair/protocol';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { useSessionStore } from '../stores/index.ts';
import { messageOf } from './api-errors.ts';
import { signOut } from './session.ts';
import { showToast } from './toasts.ts';

/** Spec §2/§8: the display name, with the exact success and failure words. */
export async function updateDisplayName(displayName: string, client: HttpClient = httpClient): Promise<boolean> {
  try {
    const user = await call(updateCurrentUserEndpoint, { body: { displayName } }, client);
    useSessionStore.setState({ user });
    showToast({ kind: 'success', title: 'Your name has been updated' });
    return true;
  } catch {
    showToast({ kind: 'error', title: 'Failed to update your name' });
    return false;
  }
}

/**
 * Spec §4 Mailing: Save sends the preferences and the subscribed flag; a change of the flag is
 * the mailing-list status change, after which the settings are read again.
 */
export async function saveMailing(preferences: MailingPreferences, subscribed: boolean, client: HttpClient = httpClient): Promise<boolean> {
  const before = useSessionStore.getState().settings?.mailing.subscribed;
  try {
    await call(updateMailingPreferencesEndpoint, { body: preferences }, client);
    await call(updateMailingStatusEndpoint, { body: { subscribed } }, client);
    const settings = await call(getUserSettingsEndpoint, {}, client);
    useSessionStore.setState({ settings });
    showToast({ kind: 'success', title: before === subscribed ? 'Email preferences saved' : subscribed ? 'You are subscribed' : 'You are unsubscribed' });
    return true;
  } catch (err) {
    showToast({ kind: 'error', title: 'Failed to save your email preferences', description: messageOf(err) });
    return false;
  }
}

/**
 * Spec §4 Delete account: the request, then logout. The account is deactivated and erased after the
 * retention window (the partner area's deletion). A failure shows the server's message.
 */
export async function deleteAccount(retentionDays: number | null = null, client: HttpClient = httpClient): Promise<boolean> {
  try {
    await call(deleteCurrentUserEndpoint, {}, client);
  } catch (err) {
    showToast({ kind: 'error', title: messageOf(err) });
    return false;
  }
  await signOut(client);
  const within = retentionDays === null ? 'before it is erased' : `within ${retentionDays} days`;
  showToast({ kind: 'info', title: 'Your account has been deleted', description: `Sign in ${within} to reactivate it.` });
  return true;
}

/** Spec §4 e-mail update, step 1: a code goes to the new address. Returns the error message, or null. */
export async function requestEmailChange(newEmail: string, client: HttpClient = httpClient): Promise<string | null> {
  try {
    await client.sendJson('POST', authRoutes.requestEmailChange, { newEmail: newEmail.trim() }, { response: authAckSchema });
    return null;
  } catch (err) {
    return messageOf(err);
  }
}

/** Step 2: the code from the new address switches the account to it. Returns the error message, or null. */
export async function confirmEmailChange(newEmail: string, code: string, client: HttpClient = httpClient): Promise<string | null> {
  try {
    await client.sendJson('POST', authRoutes.confirmEmailChange, { newEmail: newEmail.trim(), otp: code.trim() }, { response: authAckSchema });
    const user = await call(getCurrentUserEndpoint, {}, client);
    useSessionStore.setState({ user });
    showToast({ kind: 'success', title: 'Your e-mail address has been updated' });
    return null;
  } catch (err) {
    return messageOf(err);
  }
}

/** The development inbox; null when this server sends real mail (the endpoint is absent). */
export async function loadDevInbox(client: HttpClient = httpClient): Promise<CapturedMessage[] | null> {
  try {
    const { messages } = await call(listDevInboxEndpoint, {}, client);
    return messages;
  } catch {
    return null;
  }
}

/** TOTP setup, step 1: a secret for the authenticator app and ten recovery codes (not on yet). */
export async function startMfaSetup(client: HttpClient = httpClient): Promise<MfaSetup | string> {
  try {
    return await client.sendJson('POST', authRoutes.enableMfa, {}, { response: mfaSetupSchema });
  } catch (err) {
    return messageOf(err);
  }
}

/** Step 2: the first code from the app proves the setup and turns MFA on. Returns the error message, or null. */
export async function confirmMfaSetup(code: string, client: HttpClient = httpClient): Promise<string | null> {
  try {
    await client.sendJson('POST', authRoutes.verifyTotp, { code: code.trim() }, { response: authAckSchema });
    const user = await call(getCurrentUserEndpoint, {}, client);
    useSessionStore.setState({ user });
    showToast({ kind: 'success', title: 'Two-step verification is on' });
    return null;
  } catch (err) {
    return messageOf(err);
  }
}

export async function disableMfa(client: HttpClient = httpClient): Promise<boolean> {
  try {
    await client.sendJson('POST', authRoutes.disableMfa, {}, { response: authAckSchema });
    const user = await call(getCurrentUserEndpoint, {}, client);
    useSessionStore.setState({ user });
    showToast({ kind: 'info', title: 'Two-step verification is off' });
    return true;
  } catch (err) {
    showToast({ kind: 'error', title: messageOf(err) });
    return false;
  }
}

/** Adding or changing the phone number, step 1: a code by SMS to the new number. Returns the error message, or null. */
export async function requestPhoneVerification(phoneNumber: string, client: HttpClient = httpClient): Promise<string | null> {
  try {
    await client.sendJson('POST', authRoutes.sendSmsCode, { phoneNumber: phoneNumber.replace(/[\s()-]/g, '') }, { response: authAckSchema });
    return null;
  } catch (err) {
    return messageOf(err);
  }
}

/** Step 2: the code proves the number, which becomes the account's (and can then sign in). */
export async function confirmPhoneNumber(phoneNumber: string, code: string, client: HttpClient = httpClient): Promise<string | null> {
  try {
    const body = { phoneNumber: phoneNumber.replace(/[\s()-]/g, ''), code: code.trim(), updatePhoneNumber: true };
    await client.sendJson('POST', authRoutes.verifySmsCode, body, { response: authAckSchema });
    const user = await call(getCurrentUserEndpoint, {}, client);
    useSessionStore.setState({ user });
    showToast({ kind: 'success', title: 'Your phone number has been verified' });
    return null;
  } catch (err) {
    return messageOf(err);
  }
}
