import { selectableDevices, type DeviceLike } from '@onair/protocol';
import { CAMERA_CHOICE_STORAGE_KEY, MICROPHONE_CHOICE_STORAGE_KEY, browserStorage, useDeviceStore } from '../stores/index.ts';
import { setMirrored } from './app.ts';
import { updateSource } from './scene-edits.ts';

const plain = (d: MediaDeviceInfo): DeviceLike => ({ deviceId: d.deviceId, label: d.label, groupId: d.groupId });

/**
 * Asks for camera and microphone access once (labels are empty without it), then lists the
 * devices. Default and communications pseudo-devices are left out of the lists (spec §5).
 */
export async function loadDevices(): Promise<void> {
  const media = globalThis.navigator?.mediaDevices;
  if (!media) {
    useDeviceStore.setState({ permission: 'denied' });
    return;
  }
  try {
    const probe = await media.getUserMedia({ video: true, audio: true });
    for (const track of probe.getTracks()) track.stop();
    useDeviceStore.setState({ permission: 'granted' });
  } catch {
    useDeviceStore.setState({ permission: 'denied' });
  }
  const devices = await media.enumerateDevices();
  const cams = devices.filter((d) => d.kind === 'videoinput').map(plain);
  const mics = devices.filter((d) => d.kind === 'audioinput').map(plain);
  useDeviceStore.setState({ listed: true, cameras: selectableDevices(cams), microphones: selectableDevices(mics), allMicrophones: mics });
}

const starting = new Map<string, Promise<void>>();

/** Starts (once) a live preview of one camera; the stream stays in the device store for every view of it. */
export function startCameraPreview(deviceId: string): Promise<void> {
  if (useDeviceStore.getState().previews[deviceId]) return Promise.resolve();
  const existing = starting.get(deviceId);
  if (existing) return existing;
  const promise = (async () => {
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ video: { deviceId: { exact: deviceId } }, audio: false });
      useDeviceStore.setState((s) => ({ previews: { ...s.previews, [deviceId]: stream } }));
    } catch {
      // The camera is busy or gone: its views keep showing 'Camera Offline'.
    } finally {
      starting.delete(deviceId);
    }
  })();
  starting.set(deviceId, promise);
  return promise;
}

export function stopCameraPreviews(): void {
  for (const stream of Object.values(useDeviceStore.getState().previews)) for (const track of stream.getTracks()) track.stop();
  useDeviceStore.setState({ previews: {} });
}

function remember(key: string, value: string | null): void {
  try {
    if (value === null) browserStorage()?.setItem(key, '');
    else browserStorage()?.setItem(key, value);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
}

/** Puts a camera on a webcam source and remembers it for the next camera this browser adds. */
export function chooseCamera(sourceId: string, deviceId: string): void {
  updateSource(sourceId, { settings: { kind: 'webcam', webcamDeviceId: deviceId } });
  remember(CAMERA_CHOICE_STORAGE_KEY, deviceId);
  useDeviceStore.setState({ rememberedCamera: deviceId });
}

export function chooseMicrophone(sourceId: string, deviceId: string | null): void {
  updateSource(sourceId, { settings: { kind: 'webcam', microphoneDeviceId: deviceId } });
  remember(MICROPHONE_CHOICE_STORAGE_KEY, deviceId);
  useDeviceStore.setState({ rememberedMicrophone: deviceId });
}

/** 'Mirror Camera': on the source for everyone, and remembered here as the spec's isMirrored flag. */
export function mirrorCamera(sourceId: string, mirrored: boolean): void {
  updateSource(sourceId, { settings: { kind: 'webcam', mirrorCamera: mirrored } });
  setMirrored(mirrored);
}

export function setCameraDisplayName(sourceId: string, displayName: string): void {
  updateSource(sourceId, { settings: { kind: 'webcam', displayName } });
}
