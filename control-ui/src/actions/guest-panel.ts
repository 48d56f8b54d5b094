// The host's side of the guest room: the Guests tab, the Invite Guests panel and each
// participant's audio in the program.
import { createGuestLinkEndpoint, getGuestLinkEndpoint, hasPermission, listGuestsEndpoint, removeGuestEndpoint } from '@onair/protocol';
import { call } from '../api/call.ts';
import { DEFAULT_PARTICIPANT_AUDIO, withVolume, writeParticipantAudio, type ParticipantAudio } from '../model/participant-audio.ts';
import { browserStorage, initialGuestsState, useGuestsStore, useStudioStore } from '../stores/index.ts';
import { apiErrorOf, messageOf } from './api-errors.ts';
import { loadGuestChat, roomClient } from './guest-chat.ts';
import { loadPeople } from './project-people.ts';
import { addSourceToScene, updateSource } from './scene-edits.ts';
import { showToast } from './toasts.ts';

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
    const { guests, maximum } = await call(listGuestsEndpoint, { params: { projectId } }, roomClient());
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
