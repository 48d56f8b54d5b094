import { create } from 'zustand';
import type { DeviceLike } from '@onair/protocol';
import type { FlagStorage } from './browser-storage.ts';

/** Spec §4: camera and microphone choices are remembered in this browser. */
export const CAMERA_CHOICE_STORAGE_KEY = 'onair.cameraDeviceId';
export const MICROPHONE_CHOICE_STORAGE_KEY = 'onair.microphoneDeviceId';

export type MediaPermission = 'unknown' | 'granted' | 'denied';

export interface DeviceState {
  permission: MediaPermission;
  /** Whether the browser's devices have been listed once: until then an empty list means nothing. */
  listed: boolean;
  /** Selectable devices only (no default/communications pseudo-devices). */
  cameras: DeviceLike[];
  microphones: DeviceLike[];
  /** Every device as the browser lists it, pseudo-devices included: needed to resolve 'default'. */
  allMicrophones: DeviceLike[];
  rememberedCamera: string | null;
  rememberedMicrophone: string | null;
  /** Live local camera streams by device id: the previews and the host's own camera layers. */
  previews: Record<string, MediaStream>;
}

function read(storage: FlagStorage | undefined, key: string): string | null {
  try {
    return storage?.getItem(key) || null;
  } catch {
    return null;
  }
}

export function createDeviceStore(storage: FlagStorage | undefined) {
  return create<DeviceState>()(() => ({
    permission: 'unknown',
    listed: false,
    cameras: [],
    microphones: [],
    allMicrophones: [],
    rememberedCamera: read(storage, CAMERA_CHOICE_STORAGE_KEY),
    rememberedMicrophone: read(storage, MICROPHONE_CHOICE_STORAGE_KEY),
    previews: {},
  }));
}
