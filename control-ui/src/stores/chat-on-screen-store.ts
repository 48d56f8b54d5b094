import { create } from 'zustand';
import { CHAT_ON_SCREEN_DEFAULT_MS, chatOnScreenDurations, type ChatOnAir, type ChatOnScreen } from '@onair/protocol';
import type { FlagStorage } from './browser-storage.ts';

/** How long a message the host shows stays on screen (null: until taken off); remembered in this browser. */
export type OnScreenDuration = (typeof chatOnScreenDurations)[number];

export interface ChatOnScreenState {
  projectId: string | null;
  /** The message the program shows now, as the server last said; null when none is. */
  onScreen: ChatOnScreen | null;
  /** What the session's pipeline last reported drawn over the program: 'On screen' is said from this, not from the click. */
  onAir: ChatOnAir | null;
  /** The overlay page that draws the same lower third, for a creator's own streaming tool. */
  overlayUrl: string | null;
  /** The message being put on or taken off (its button waits). */
  pending: string | null;
  duration: OnScreenDuration;
  error: string | null;
}

const DURATION_KEY = 'onair.chatOnScreen.durationMs';

export function readOnScreenDuration(storage: FlagStorage | undefined): OnScreenDuration {
  try {
    const raw = storage?.getItem(DURATION_KEY);
    if (raw === 'null') return null;
    const value = Number(raw);
    return chatOnScreenDurations.find((d) => d === value) ?? CHAT_ON_SCREEN_DEFAULT_MS;
  } catch {
    return CHAT_ON_SCREEN_DEFAULT_MS;
  }
}

export function writeOnScreenDuration(storage: FlagStorage | undefined, duration: OnScreenDuration): void {
  try {
    storage?.setItem(DURATION_KEY, String(duration));
  } catch {
    // Quota or privacy settings: the choice lasts for this page only.
  }
}

export function initialChatOnScreenState(storage?: FlagStorage): ChatOnScreenState {
  return { projectId: null, onScreen: null, onAir: null, overlayUrl: null, pending: null, duration: readOnScreenDuration(storage), error: null };
}

export function createChatOnScreenStore(storage: FlagStorage | undefined) {
  return create<ChatOnScreenState>()(() => initialChatOnScreenState(storage));
}
