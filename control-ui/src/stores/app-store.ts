import { create } from 'zustand';
import { readBooleanFlag, type FlagStorage } from './browser-storage.ts';

/** Spec §3: the numeric user types. */
export const UserType = { HOST: 0, GUEST: 1, ADMIN: 2 } as const;
export type UserType = (typeof UserType)[keyof typeof UserType];

/** Spec §3/§9: the canvas before anyone signs in (720p). */
export const DEFAULT_CANVAS = { width: 1280, height: 720 } as const;

/** Spec §3: the mirror preference survives reloads under this exact key. */
export const IS_MIRRORED_STORAGE_KEY = 'isMirrored';

export interface CanvasSize {
  width: number;
  height: number;
}

/** The project open in the studio; it grows into protocol's project contract when the projects API lands. */
export interface OpenProject {
  id: string;
}

export interface AppState {
  userType: UserType;
  guestToken: string | null;
  commandToken: string | null;
  isLive: boolean;
  isMirrored: boolean;
  project: OpenProject | null;
  isEditorReady: boolean;
  canvas: CanvasSize;
}

export function initialAppState(storage: FlagStorage | undefined): AppState {
  return {
    userType: UserType.GUEST,
    guestToken: null,
    commandToken: null,
    isLive: false,
    isMirrored: readBooleanFlag(storage, IS_MIRRORED_STORAGE_KEY, false),
    project: null,
    isEditorReady: false,
    canvas: { ...DEFAULT_CANVAS },
  };
}

export function createAppStore(storage: FlagStorage | undefined) {
  return create<AppState>()(() => initialAppState(storage));
}
