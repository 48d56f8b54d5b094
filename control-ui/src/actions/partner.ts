import {
  acceptInviteEndpoint,
  completeOnboardingEndpoint,
  createInviteEndpoint,
  declineInviteByLinkEndpoint,
  declineInviteEndpoint,
  disconnectLoginMethodEndpoint,
  getChannelEndpoint,
  getPartnerAccountEndpoint,
  leaveChannelEndpoint,
  listChannelsEndpoint,
  listChannelStreamsEndpoint,
  listReceivedInvitesEndpoint,
  listSentInvitesEndpoint,
  removeSentInviteEndpoint,
  updateEmailNotificationsEndpoint,
  updateInviteEndpoint,
  updatePersonalInfoEndpoint,
  removeAvatarEndpoint,
  uploadAvatarEndpoint,
  oauthStartAnswerSchema,
  type CreateInviteBody,
  type EmailNotifications,
  type PermissionGroup,
  type PersonalInfo,
} from '@onair/protocol';
import { UnauthorizedError } from '../api/http-errors.ts';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { usePartnerStore } from '../stores/index.ts';
import { apiErrorOf, messageOf } from './api-errors.ts';
import { failureOf, type Result } from './result.ts';
import { loadAccount } from './session.ts';
import { showToast } from './toasts.ts';

/** The creator account; 'unauthenticated' sends the partner area to sign-in. */
export async function loadPartnerAccount(client: HttpClient = httpClient): Promise<void> {
  if (usePartnerStore.getState().accountStatus !== 'ready') usePartnerStore.setState({ accountStatus: 'loading' });
  try {
    const account = await call(getPartnerAccountEndpoint, {}, client);
    const { channels } = await call(listChannelsEndpoint, {}, client);
    const selected = usePartnerStore.getState().selectedChannelId;
    usePartnerStore.setState({
      accountStatus: 'ready',
      account,
      channels,
      selectedChannelId: channels.some((c) => c.id === selected) ? selected : (channels[0]?.id ?? null),
    });
  } catch (err) {
    usePartnerStore.setState({ accountStatus: err instanceof UnauthorizedError ? 'unauthenticated' : 'failed' });
  }
}

/** The channel selector (partner spec §6: a user may manage other channels). */
export function selectChannel(channelId: string): void {
  usePartnerStore.setState({ selectedChannelId: channelId });
}

/** Get Started: the account details, once. */
export async function completeOnboarding(info: PersonalInfo, client: HttpClient = httpClient): Promise<Result> {
  try {
    const account = await call(completeOnboardingEndpoint, { body: info }, client);
    usePartnerStore.setState({ account });
    await loadPartnerAccount(client);
    return { ok: true, value: undefined };
  } catch (err) {
    return failureOf(err);
  }
}

export async function savePersonalInfo(info: PersonalInfo, client: HttpClient = httpClient): Promise<Result> {
  try {
    const account = await call(updatePersonalInfoEndpoint, { body: info }, client);
    usePartnerStore.setState({ account });
    showToast({ kind: 'success', title: 'Personal information saved' });
    return { ok: true, value: undefined };
  } catch (err) {
    const result = failureOf(err);
    showToast({ kind: 'error', title: 'Failed to save your personal information', description: result.ok ? '' : result.message });
    return result;
  }
}

export async function saveEmailNotifications(prefs: EmailNotifications, client: HttpClient = httpClient): Promise<void> {
  try {
    const account = await call(updateEmailNotificationsEndpoint, { body: prefs }, client);
    usePartnerStore.setState({ account });
    showToast({ kind: 'success', title: 'Email notifications saved' });
  } catch (err) {
    showToast({ kind: 'error', title: 'Failed to save your email notifications', description: messageOf(err) });
  }
}

export async function disconnectLoginMethod(providerId: string, client: HttpClient = httpClient): Promise<void> {
  try {
    const account = await call(disconnectLoginMethodEndpoint, { params: { providerId } }, client);
    usePartnerStore.setState({ account });
    showToast({ kind: 'success', title: 'Disconnected' });
  } catch (err) {
    showToast({ kind: 'error', title: 'Could not disconnect', description: messageOf(err) });
  }
}

// ─── Collaborators ───

export async function loadCollaborators(client: HttpClient = httpClient): Promise<void> {
  if (usePartnerStore.getState().collaboratorsStatus === 'idle') usePartnerStore.setState({ collaboratorsStatus: 'loading' });
  try {
    const [sent, received] = await Promise.all([call(listSentInvitesEndpoint, {}, client), call(listReceivedInvitesEndpoint, {}, client)]);
    usePartnerStore.setState({ collaboratorsStatus: 'ready', sent: sent.invites, received: received.invites });
  } catch {
    usePartnerStore.setState({ collaboratorsStatus: 'failed' });
  }
}

export async function sendInvite(body: CreateInviteBody, client: HttpClient = httpClient): Promise<Result> {
  try {
    await call(createInviteEndpoint, { body }, client);
    showToast({ kind: 'success', title: 'Invitation sent' });
    await loadCollaborators(client);
    return { ok: true, value: undefined };
  } catch (err) {
    return failureOf(err);
  }
}

export async function updateInvitePermissions(inviteId: string, permissions: PermissionGroup[], client: HttpClient = httpClient): Promise<Result> {
  try {
    await call(updateInviteEndpoint, { params: { inviteId }, body: { permissions } }, client);
    showToast({ kind: 'success', title: 'Permissions updated' });
    await loadCollaborators(client);
    return { ok: true, value: undefined };
  } catch (err) {
    return failureOf(err);
  }
}

/** Revoke (pending or accepted) or clear (declined). */
export async function removeInvite(inviteId: string, words: { done: string; failed: string }, client: HttpClient = httpClient): Promise<void> {
  try {
    await call(removeSentInviteEndpoint, { params: { inviteId } }, client);
    showToast({ kind: 'success', title: words.done });
  } catch (err) {
    showToast({ kind: 'error', title: words.failed, description: messageOf(err) });
  }
  await loadCollaborators(client);
}

export async function answerInvite(inviteId: string, answer: 'accept' | 'decline' | 'leave', client: HttpClient = httpClient): Promise<void> {
  const words = {
    accept: { done: 'Invitation accepted', failed: 'Failed to accept the invitation' },
    decline: { done: 'Invitation declined', failed: 'Failed to decline the invitation' },
    leave: { done: 'You left the channel', failed: 'Failed to leave the channel' },
  }[answer];
  try {
    if (answer === 'leave') await call(leaveChannelEndpoint, { params: { inviteId } }, client);
    else {
      const endpoint = answer === 'accept' ? acceptInviteEndpoint : declineInviteEndpoint;
      await call(endpoint, { params: { inviteId } }, client);
    }
    showToast({ kind: 'success', title: words.done });
  } catch (err) {
    showToast({ kind: 'error', title: words.failed, description: messageOf(err) });
  }
  await Promise.all([loadCollaborators(client), loadPartnerAccount(client)]);
}

/** Decline Collaboration Invite: the e-mail's link, signed in or not. Returns the channel's name or the refusal. */
export async function declineInviteByLink(token: string, client: HttpClient = httpClient): Promise<Result<string>> {
  try {
    const { channelName } = await call(declineInviteByLinkEndpoint, { body: { token } }, client);
    return { ok: true, value: channelName };
  } catch (err) {
    return { ok: false, message: messageOf(err), fieldErrors: {} };
  }
}

// ─── A channel ───

/** The Channel page: the channel as the caller may see it, then its streams when Analytics is granted. */
export async function loadChannel(channelId: string, client: HttpClient = httpClient): Promise<void> {
  usePartnerStore.setState({ channelStatus: 'loading', channelError: null, streams: null, streamsError: null });
  try {
    const channel = await call(getChannelEndpoint, { params: { channelId } }, client);
    usePartnerStore.setState({ channelStatus: 'ready', channel });
  } catch (err) {
    usePartnerStore.setState({ channelStatus: err instanceof UnauthorizedError ? 'unauthenticated' : 'failed', channel: null, channelError: messageOf(err) });
    return;
  }
  try {
    const { streams } = await call(listChannelStreamsEndpoint, { params: { channelId } }, client);
    usePartnerStore.setState({ streams });
  } catch (err) {
    // The server decides; a collaborator without Analytics reads why.
    usePartnerStore.setState({ streamsError: messageOf(err) });
  }
}

/** Settings › Integrations 'Connect': leaves for the platform's consent page, which returns to Integrations. */
export async function connectPlatform(providerId: string, client: HttpClient = httpClient): Promise<void> {
  try {
    const { url } = await client.sendJson(
      'POST',
      '/api/auth/link-social',
      { provider: providerId, callbackURL: '/partner/settings/integrations' },
      { response: oauthStartAnswerSchema },
    );
    window.location.assign(url);
  } catch (err) {
    showToast({ kind: 'error', title: 'Could not connect', description: messageOf(err) });
  }
}

/** Settings › Personal information: a new avatar from a picked file (the api checks type and size). */
export async function uploadAvatar(file: File, client: HttpClient = httpClient): Promise<void> {
  try {
    const dataUrl = await new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
      reader.readAsDataURL(file);
    });
    const account = await call(uploadAvatarEndpoint, { body: { dataUrl } }, client);
    usePartnerStore.setState({ account });
    await loadAccount(client);
    showToast({ kind: 'success', title: 'Avatar updated' });
  } catch (err) {
    const api = apiErrorOf(err);
    showToast({
      kind: 'error',
      title: 'Failed to update your avatar',
      description: api?.code === 'VALIDATION_FAILED' ? 'Upload a PNG, JPEG or WebP image of at most 0.5 MB.' : messageOf(err),
    });
  }
}

export async function removeAvatar(client: HttpClient = httpClient): Promise<void> {
  try {
    const account = await call(removeAvatarEndpoint, {}, client);
    usePartnerStore.setState({ account });
    await loadAccount(client);
  } catch (err) {
    showToast({ kind: 'error', title: 'Failed to remove your avatar', description: messageOf(err) });
  }
}
