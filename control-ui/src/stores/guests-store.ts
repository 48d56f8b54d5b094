import { create } from 'zustand';
import type { Guest, GuestChatMessage, GuestLinkView, ProjectInvitation, ProjectMember } from '@onair/protocol';
import { readParticipantAudio, type ParticipantAudio } from '../model/participant-audio.ts';
import type { FlagStorage } from './browser-storage.ts';

/** Where the guest page is in its flow (spec §2 guest link page). */
export type GuestPageStep =
  | { kind: 'checking' }
  /** The link is refused: the server's words (revoked, expired, not for this studio, plan limit). */
  | { kind: 'refused'; title: string; message: string }
  | { kind: 'settings'; projectName: string }
  | { kind: 'joining'; projectName: string }
  | { kind: 'joined'; projectName: string; guestId: string; displayName: string }
  | { kind: 'left'; projectName: string; reason: 'left' | 'removed' | 'ended' };

export interface GuestsState {
  /** The project whose room this page is in, and whether this page is a guest's (the guest page). */
  projectId: string | null;
  asGuest: boolean;
  /** The host's side: the active guest link, the guests in the room and how many the plan admits. */
  link: GuestLinkView | null;
  linkBusy: 'copy' | 'generate' | null;
  guests: Guest[];
  /** Guests the plan admits at once: null for no limit, undefined until known. */
  maximum: number | null | undefined;
  /** The Guests tab shows the invite view (spec §2: directly when nobody is there). */
  inviting: boolean;
  /** Guest Chat of the room. */
  chat: GuestChatMessage[];
  chatError: string | null;
  sending: boolean;
  /** Spec §4 "Chat": set when messages arrive while the chat is not shown, cleared when it is. */
  chatViewed: boolean;
  unread: boolean;
  /** Spec §3: volume and mute per participant, remembered in this browser. */
  audio: Record<string, ParticipantAudio>;
  page: GuestPageStep;
  /** The people of the project with a role, and invitations not accepted yet (for those who manage guests). */
  members: ProjectMember[];
  invitations: ProjectInvitation[];
  peopleError: string | null;
  /** The invitation page (a role offered by e-mail): accepting, accepted, or why not. */
  invitation: InvitationStep;
}

export type InvitationStep =
  | { kind: 'accepting' }
  | { kind: 'accepted'; projectId: string; projectName: string; role: string }
  | { kind: 'failed'; message: string; needsSignIn: boolean };

export function initialGuestsState(storage?: FlagStorage): GuestsState {
  return {
    projectId: null,
    asGuest: false,
    link: null,
    linkBusy: null,
    guests: [],
    maximum: undefined,
    inviting: false,
    chat: [],
    chatError: null,
    sending: false,
    chatViewed: false,
    unread: false,
    audio: readParticipantAudio(storage),
    page: { kind: 'checking' },
    invitation: { kind: 'accepting' },
    members: [],
    invitations: [],
    peopleError: null,
  };
}

export function createGuestsStore(storage: FlagStorage | undefined) {
  return create<GuestsState>()(() => initialGuestsState(storage));
}
