/** The part of a MediaDeviceInfo the rules need; plain data so they run outside a browser. */
export interface DeviceLike {
  deviceId: string;
  label: string;
  groupId: string;
}

/** Browser pseudo-devices that stand for another device. */
const PSEUDO_DEVICE_IDS = new Set(['default', 'communications']);

/** Default and communications pseudo-devices and empty ids are left out of device lists (spec §5). */
export function selectableDevices<D extends DeviceLike>(devices: readonly D[]): D[] {
  return devices.filter((d) => d.deviceId !== '' && !PSEUDO_DEVICE_IDS.has(d.deviceId));
}

/**
 * Microphone 'default' resolves to the device the browser marks as default (the real device in the
 * default entry's group, else the first one); an id that is no longer present resets to none (spec §4).
 */
export function resolveMicrophoneId(requested: string | null, devices: readonly DeviceLike[]): string | null {
  if (requested === null) return null;
  const real = selectableDevices(devices);
  if (requested === 'default') {
    const marker = devices.find((d) => d.deviceId === 'default');
    return (marker && real.find((d) => d.groupId === marker.groupId)?.deviceId) ?? real[0]?.deviceId ?? null;
  }
  return real.some((d) => d.deviceId === requested) ? requested : null;
}

/** Webcam 'default' resolves to the first webcam; an id that is no longer present resets to none. */
export function resolveWebcamId(requested: string | null, devices: readonly DeviceLike[]): string | null {
  if (requested === null) return null;
  const real = selectableDevices(devices);
  if (requested === 'default') return real[0]?.deviceId ?? null;
  return real.some((d) => d.deviceId === requested) ? requested : null;
}
