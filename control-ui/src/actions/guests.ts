import {
  acceptProjectInvitationEndpoint,
  inviteProjectMemberEndpoint,
  listProjectInvitationsEndpoint,
  listProjectMembersEndpoint,
  removeProjectMemberEndpoint,
  updateProjectMemberEndpoint,
  withdrawProjectInvitationEndpoint,
  type GrantableRole,
  checkGuestLinkEndpoint,
  createGuestLinkEndpoint,
  getGuestLinkEndpoint,
  GUEST_REQUEST_HEADER,
  GUEST_SOCKET_QUERY,
  hasPermission,
  joinAsGuestEndpoint,
  leaveAsGuestEndpoint,
  listGuestChatEndpoint,
  listGuestsEndpoint,
  removeGuestEndpoint,
  sendGuestChatEndpoint,
  WS_PATH,
  type ServerMessage,
} from '@onair/protocol';
import { call } from '../api/call.ts';
import { createHttpClient, httpClient, type HttpClient } from '../api/http-client.ts';
import { UnauthorizedError } from '../api/http-errors.ts';
import { connectStudioSocket, type StudioSocket } from '../api/studio-socket.ts';
import { DEFAULT_PARTICIPANT_AUDIO, withVolume, writeParticipantAudio, type ParticipantAudio } from '../model/participant-audio.ts';
import { browserStorage, initialGuestsState, useGuestsStore, useStudioStore, type GuestPageStep } from '../stores/index.ts';
import { apiErrorOf, messageOf } from './api-errors.ts';
import { stopCameraPreviews } from './devices.ts';
import { enterRoom, leaveRoom, receiveRoomError, receiveRoomMessage } from './media.ts';
import { addSourceToScene, updateSource } from './scene-edits.ts';
import { showToast } from './toasts.ts';

/** The guest page's requests act as the guest of its guest session, even in a browser signed in to an account. */
const guestHttpClient = createHttpClient({ headers: { [GUEST_REQUEST_HEADER]: '1' } });

function client(): HttpClient {
  return useGuestsStore.getState().asGuest ? guestHttpClient : httpClient;
}

// ─── The host's side: the Guests tab and the Invite Guests panel ───

/** The studio opened a project: its guests, its link (for those who may invite) and its Guest Chat. */
export async function openGuestRoom(projectId: string): Promise<void> {
  useGuestsStore.setState({ ...initialGuestsState(browserStorage()), projectId, asGuest: false });
  const role = useStudioStore.getState().project?.role;
  await Promise.all([
    loadGuests(projectId),
    loadGuestChat(projectId),
    hasPermission(role, 'invite guests') ? loadGuestLink(projectId) : Promise.resolve(),
    hasPermission(role, 'manage guests') ? loadPeople(projectId) : Promise.resolve(),
  ]);
}

export function closeGuestRoom(): void {
  useGuestsStore.setState(initialGuestsState(browserStorage()));
}

async function loadGuests(projectId: string): Promise<void> {
  try {
    const { guests, maximum } = await call(listGuestsEndpoint, { params: { projectId } }, client());
    if (useGuestsStore.getState().projectId === projectId) useGuestsStore.setState({ guests, maximum });
  } catch {
    // The list comes again with the next guests.changed event.
  }
}

async function loadGuestLink(projectId: string): Promise<void> {
  try {
    const link = await call(getGuestLinkEndpoint, { params: { projectId } });
    if (useGuestsStore.getState().projectId === projectId) useGuestsStore.setState({ link });
  } catch {
    // Copy Guest Link asks again and says so if it fails.
  }
}

/** Copy Guest Link (spec §2, §8): 'Guest Link Copied', or 'Failed to copy to clipboard'. */
export async function copyGuestLink(): Promise<void> {
  const { projectId } = useGuestsStore.getState();
  if (!projectId) return;
  useGuestsStore.setState({ linkBusy: 'copy' });
  try {
    const link = useGuestsStore.getState().link ?? (await call(getGuestLinkEndpoint, { params: { projectId } }));
    useGuestsStore.setState({ link });
    await navigator.clipboard.writeText(link.linkUrl);
    showToast({ kind: 'success', title: 'Guest Link Copied' });
  } catch (err) {
    showToast({ kind: 'error', title: 'Failed to copy to clipboard', description: apiErrorOf(err)?.message });
  } finally {
    useGuestsStore.setState({ linkBusy: null });
  }
}

/** Generate New Link: the old link stops admitting guests; guests already in stay until removed. */
export async function generateNewGuestLink(): Promise<void> {
  const { projectId } = useGuestsStore.getState();
  if (!projectId) return;
  useGuestsStore.setState({ linkBusy: 'generate' });
  try {
    const link = await call(createGuestLinkEndpoint, { params: { projectId } });
    useGuestsStore.setState({ link });
    showToast({
      kind: 'success',
      title: 'New guest link ready',
      description: 'The previous link no longer lets anyone join. Copy the new one to invite guests.',
    });
  } catch (err) {
    showToast({ kind: 'error', title: 'A new guest link could not be made', description: messageOf(err) });
  } finally {
    useGuestsStore.setState({ linkBusy: null });
  }
}

/** Spec §2: 'Invite Guest' switches the Guests tab to the invite view, which has a back button. */
export function showInviteView(inviting: boolean): void {
  useGuestsStore.setState({ inviting });
}

/** Remove a guest from the room (manage guests): their media stops and their guest session ends. */
export async function removeGuest(guestId: string): Promise<void> {
  const { projectId } = useGuestsStore.getState();
  if (!projectId) return;
  try {
    await call(removeGuestEndpoint, { params: { projectId, guestId } });
  } catch (err) {
    showToast({ kind: 'error', title: 'The guest could not be removed', description: messageOf(err) });
  }
}

// ─── Participant audio (spec §3 preference, §5 slider) ───

export function participantAudioOf(participantId: string): ParticipantAudio {
  return useGuestsStore.getState().audio[participantId] ?? DEFAULT_PARTICIPANT_AUDIO;
}

function rememberAudio(participantId: string, audio: ParticipantAudio): void {
  const next = { ...useGuestsStore.getState().audio, [participantId]: audio };
  useGuestsStore.setState({ audio: next });
  writeParticipantAudio(browserStorage(), next);
}

/** Moving the slider sets the volume and unmutes; the guest source (if any) follows, and the choice is remembered. */
export function setParticipantVolume(participantId: string, volume: number, sourceId: string | null): void {
  const audio = withVolume(participantAudioOf(participantId), volume);
  rememberAudio(participantId, audio);
  if (sourceId) updateSource(sourceId, { settings: { kind: 'participant', volume: audio.volume, muted: false } });
}

export function setParticipantMuted(participantId: string, muted: boolean, sourceId: string | null): void {
  rememberAudio(participantId, { ...participantAudioOf(participantId), muted });
  if (sourceId) updateSource(sourceId, { settings: { kind: 'participant', muted } });
}

/** 'Add to scene': a guest source bound to this participant, starting at their remembered volume and mute. */
export function addGuestToScene(participantId: string, displayName: string): void {
  const { volume, muted } = participantAudioOf(participantId);
  // A template's empty guest slot in the scene takes the guest, keeping its place in the layout.
  const doc = useStudioStore.getState().document;
  const scene = doc?.scenes.find((s) => s.id === doc.activeSceneId);
  const slot = doc?.sources.find((s) => s.kind === 'participant' && s.settings.userId === null && scene?.layers.some((l) => l.sourceId === s.id));
  if (slot) {
    updateSource(slot.id, {
      name: displayName.trim().slice(0, 100) || slot.name,
      settings: { kind: 'participant', userId: participantId, displayName, volume, muted },
    });
    return;
  }
  // Named by the guest, not 'Guest': the list of sources and the tile say who it is.
  addSourceToScene('participant', { userId: participantId, displayName, volume, muted }, displayName.trim().slice(0, 100) || undefined);
}

// ─── Guest Chat (spec §2 side panel tab, §5 validation) ───

async function loadGuestChat(projectId: string): Promise<void> {
  try {
    const { messages } = await call(listGuestChatEndpoint, { params: { projectId } }, client());
    if (useGuestsStore.getState().projectId === projectId) useGuestsStore.setState({ chat: messages, chatError: null });
  } catch (err) {
    useGuestsStore.setState({ chatError: messageOf(err) });
  }
}

/** Sends a message to everyone in the room; true when it was accepted (the input then clears). */
export async function sendGuestChat(content: string): Promise<boolean> {
  const { projectId } = useGuestsStore.getState();
  if (!projectId) return false;
  useGuestsStore.setState({ sending: true, chatError: null });
  try {
    const message = await call(sendGuestChatEndpoint, { params: { projectId }, body: { content } }, client());
    addChatMessage(message);
    return true;
  } catch (err) {
    useGuestsStore.setState({ chatError: messageOf(err) });
    return false;
  } finally {
    useGuestsStore.setState({ sending: false });
  }
}

function addChatMessage(message: Extract<ServerMessage, { type: 'guest.chat' }>['message']): void {
  const { chat, chatViewed } = useGuestsStore.getState();
  if (chat.some((m) => m.id === message.id)) return;
  useGuestsStore.setState({ chat: [...chat, message], unread: !chatViewed });
}

/** The Guest Chat tab is shown (or not): showing it clears unread. */
export function setGuestChatViewed(viewed: boolean): void {
  useGuestsStore.setState(viewed ? { chatViewed: true, unread: false } : { chatViewed: false });
}

/** Room events from the live channel, on the studio and on the guest page. */
export function receiveGuestEvent(message: Extract<ServerMessage, { type: 'guest.chat' | 'guests.changed' | 'guest.refused' | 'guest.removed' }>): void {
  const { projectId, asGuest, page } = useGuestsStore.getState();
  if (message.projectId !== projectId) return;
  switch (message.type) {
    case 'guest.chat':
      addChatMessage(message.message);
      return;
    case 'guests.changed': {
      const before = useGuestsStore.getState();
      useGuestsStore.setState({ guests: message.guests, maximum: message.maximum });
      // Issue 52: the studio says who arrived (a toast, read by screen readers), wherever the host is
      // looking. Only once the room was known: a first list is who was there already.
      if (asGuest || before.maximum === undefined) return;
      const known = new Set(before.guests.map((g) => g.id));
      for (const guest of message.guests.filter((g) => !known.has(g.id)))
        showToast({ kind: 'info', title: `${guest.displayName || 'A guest'} joined`, description: 'Add them to the scene from the Guests tab.' });
      return;
    }
    case 'guest.refused':
      showToast({ kind: 'warning', title: 'A guest could not join', description: message.message });
      return;
    case 'guest.removed':
      if (asGuest && page.kind === 'joined' && page.guestId === message.guestId) endGuestVisit('removed');
      return;
  }
}

// ─── The guest page (spec §2 Routes, Camera Settings panel) ───

let guestSocket: StudioSocket | null = null;
let guestToken = '';

const refusalTitles: Record<string, string> = {
  GUEST_LINK_INVALID: 'This guest link does not work',
  GUEST_LINK_REVOKED: 'This guest link was replaced',
  GUEST_LINK_EXPIRED: 'This guest link has expired',
  GUEST_LIMIT_REACHED: 'This studio is full',
  RATE_LIMITED: 'Too many attempts',
};

function refusal(err: unknown): GuestPageStep {
  const error = apiErrorOf(err);
  // A studio whose plan has no guests is not 'full': it never takes any.
  if (error?.code === 'GUEST_LIMIT_REACHED' && (error.details as { maximum?: number } | undefined)?.maximum === 0)
    return { kind: 'refused', title: 'This studio does not take guests', message: messageOf(err) };
  return { kind: 'refused', title: (error && refusalTitles[error.code]) ?? 'You cannot join right now', message: messageOf(err) };
}

/** A guest opened the link: is it still good, and whose studio is it? */
export async function openGuestPage(projectId: string, token: string | null): Promise<void> {
  closeGuestPage();
  useGuestsStore.setState({ ...initialGuestsState(browserStorage()), projectId, asGuest: true, page: { kind: 'checking' } });
  if (!token) {
    useGuestsStore.setState({ page: { kind: 'refused', title: 'This guest link is incomplete', message: 'Ask the host to send you their guest link again.' } });
    return;
  }
  guestToken = token;
  try {
    const { projectName } = await call(checkGuestLinkEndpoint, { body: { projectId, token } }, guestHttpClient);
    useGuestsStore.setState({ page: { kind: 'settings', projectName } });
  } catch (err) {
    useGuestsStore.setState({ page: refusal(err) });
  }
}

/** Join: a guest session, then the room with camera and microphone, the program preview and Guest Chat. */
export async function joinStudioAsGuest(displayName: string): Promise<void> {
  const { projectId, page } = useGuestsStore.getState();
  if (!projectId || page.kind !== 'settings') return;
  useGuestsStore.setState({ page: { kind: 'joining', projectName: page.projectName } });
  try {
    const joined = await call(joinAsGuestEndpoint, { body: { projectId, token: guestToken, displayName } }, guestHttpClient);
    useGuestsStore.setState({ page: { kind: 'joined', projectName: joined.projectName, guestId: joined.guestId, displayName: joined.displayName } });
    // The panel's previews are done with; the room captures the chosen camera itself.
    stopCameraPreviews();
  } catch (err) {
    const error = apiErrorOf(err);
    // A bad name is the guest's to fix on the same panel; anything else ends the visit with words.
    if (error?.code === 'VALIDATION_FAILED') {
      useGuestsStore.setState({ page: { kind: 'settings', projectName: page.projectName } });
      showToast({ kind: 'error', title: 'Check your name', description: error.message });
    } else {
      useGuestsStore.setState({ page: refusal(err) });
    }
    return;
  }
  void loadGuestChat(projectId);
  connectAsGuest(projectId);
}

function connectAsGuest(projectId: string): void {
  const { protocol, host } = globalThis.location;
  guestSocket = connectStudioSocket(
    {
      onOpen: () => guestSocket?.send({ type: 'subscribe', projectId }),
      onMessage: (message) => onGuestSocketMessage(projectId, message),
      onClose: () => undefined,
    },
    `${protocol === 'https:' ? 'wss' : 'ws'}://${host}${WS_PATH}?${GUEST_SOCKET_QUERY}`,
  );
}

function onGuestSocketMessage(projectId: string, message: ServerMessage): void {
  switch (message.type) {
    case 'subscribed':
      enterRoom(projectId, (m) => guestSocket?.send(m));
      return;
    case 'room.joined':
    case 'room.ready':
    case 'room.waiting':
    case 'room.answer':
    case 'room.state':
    case 'room.tiles':
    case 'room.sendSize':
      receiveRoomMessage(message);
      return;
    case 'guest.chat':
    case 'guests.changed':
    case 'guest.refused':
    case 'guest.removed':
      receiveGuestEvent(message);
      return;
    case 'error':
      if (message.code === 'GUEST_SESSION_ENDED') endGuestVisit('ended');
      else receiveRoomError(message);
      return;
    default:
      return;
  }
}

/** Leave: the guest session ends on the server, media stops, and the page says so. */
export async function leaveStudioAsGuest(): Promise<void> {
  const { projectId } = useGuestsStore.getState();
  if (projectId) {
    await call(leaveAsGuestEndpoint, { params: { projectId } }, guestHttpClient).catch(() => undefined);
  }
  endGuestVisit('left');
}

function endGuestVisit(reason: 'left' | 'removed' | 'ended'): void {
  const { page } = useGuestsStore.getState();
  leaveRoom();
  guestSocket?.close();
  guestSocket = null;
  const projectName = 'projectName' in page ? page.projectName : '';
  useGuestsStore.setState({ page: { kind: 'left', projectName, reason } });
}

/** Join again after leaving: back to the Camera Settings panel, if the link still admits guests. */
export async function rejoinAsGuest(): Promise<void> {
  const { projectId } = useGuestsStore.getState();
  if (projectId) await openGuestPage(projectId, guestToken);
}

export function closeGuestPage(): void {
  if (!useGuestsStore.getState().asGuest) return;
  leaveRoom();
  guestSocket?.close();
  guestSocket = null;
}

// ─── Invitations to a project role (spec §6): accepting from the mailed link gives the role ───

export async function acceptInvitation(token: string | null): Promise<void> {
  if (!token) {
    useGuestsStore.setState({
      invitation: { kind: 'failed', message: 'This invitation link is incomplete. Open the link from the e-mail again.', needsSignIn: false },
    });
    return;
  }
  useGuestsStore.setState({ invitation: { kind: 'accepting' } });
  try {
    const accepted = await call(acceptProjectInvitationEndpoint, { body: { token } });
    useGuestsStore.setState({ invitation: { kind: 'accepted', ...accepted } });
  } catch (err) {
    const signIn = err instanceof UnauthorizedError;
    useGuestsStore.setState({
      invitation: {
        kind: 'failed',
        message: signIn ? 'Sign in with the address the invitation was sent to, then open the link from the e-mail again.' : messageOf(err),
        needsSignIn: signIn,
      },
    });
  }
}

// ─── Co-hosts, contributors and viewers (spec §6): invited by e-mail, roles changed and taken back ───

async function loadPeople(projectId: string): Promise<void> {
  try {
    const [{ members }, { invitations }] = await Promise.all([
      call(listProjectMembersEndpoint, { params: { projectId } }),
      call(listProjectInvitationsEndpoint, { params: { projectId } }),
    ]);
    if (useGuestsStore.getState().projectId === projectId) useGuestsStore.setState({ members, invitations, peopleError: null });
  } catch (err) {
    useGuestsStore.setState({ peopleError: messageOf(err) });
  }
}

/** Mails an invitation; true when it went out (the form then clears). */
export async function inviteByEmail(email: string, role: GrantableRole): Promise<boolean> {
  const { projectId } = useGuestsStore.getState();
  if (!projectId) return false;
  try {
    await call(inviteProjectMemberEndpoint, { params: { projectId }, body: { email, role } });
    showToast({ kind: 'success', title: 'Invitation sent', description: `${email} gets the role when they accept the e-mail.` });
    await loadPeople(projectId);
    return true;
  } catch (err) {
    useGuestsStore.setState({ peopleError: messageOf(err) });
    return false;
  }
}

export async function changeMemberRole(userId: string, role: GrantableRole): Promise<void> {
  const { projectId } = useGuestsStore.getState();
  if (!projectId) return;
  try {
    await call(updateProjectMemberEndpoint, { params: { projectId, userId }, body: { role } });
    await loadPeople(projectId);
  } catch (err) {
    useGuestsStore.setState({ peopleError: messageOf(err) });
  }
}

export async function removeMember(userId: string): Promise<void> {
  const { projectId } = useGuestsStore.getState();
  if (!projectId) return;
  try {
    await call(removeProjectMemberEndpoint, { params: { projectId, userId } });
    await loadPeople(projectId);
  } catch (err) {
    useGuestsStore.setState({ peopleError: messageOf(err) });
  }
}

export async function withdrawInvitation(invitationId: string): Promise<void> {
  const { projectId } = useGuestsStore.getState();
  if (!projectId) return;
  try {
    await call(withdrawProjectInvitationEndpoint, { params: { projectId, invitationId } });
    await loadPeople(projectId);
  } catch (err) {
    useGuestsStore.setState({ peopleError: messageOf(err) });
  }
}
