/**
 * Pure rules of the studio's own media (issue 6 item 4): how a getUserMedia failure is told to
 * the creator (spec §3 media-permission error types), the device permission status of spec §4,
 * and the music and speech audio settings of spec §9.
 */
import { resolveMicrophoneId, type DeviceLike } from '@onair/protocol';

export const mediaPermissionErrorTypes = ['SystemPermissionDenied', 'UserPermissionDenied', 'CouldNotStartVideoSource', 'Generic'] as const;
export type MediaPermissionErrorType = (typeof mediaPermissionErrorTypes)[number];

export type BrowserFamily = 'chromium' | 'firefox' | 'safari' | 'other';

export function browserFamily(userAgent: string): BrowserFamily {
  if (/Firefox\//.test(userAgent)) return 'firefox';
  if (/(Chrome|Chromium|Edg)\//.test(userAgent)) return 'chromium';
  if (/Safari\//.test(userAgent)) return 'safari';
  return 'other';
}

/**
 * What a getUserMedia rejection means, per browser where they differ: Chromium says "Permission
 * denied by system" when the operating system blocks the browser; Firefox reports a camera in use
 * by another app as NotReadableError/AbortError; Safari has no system-level message and uses
 * NotAllowedError for both, so it is taken as the user's choice.
 */
export function classifyMediaError(error: { name?: string; message?: string }, browser: BrowserFamily): MediaPermissionErrorType {
  const name = error.name ?? '';
  const message = error.message ?? '';
  switch (name) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      if (browser === 'chromium' && /by system/i.test(message)) return 'SystemPermissionDenied';
      return 'UserPermissionDenied';
    case 'NotReadableError':
    case 'TrackStartError':
      return 'CouldNotStartVideoSource';
    case 'AbortError':
      return browser === 'firefox' ? 'CouldNotStartVideoSource' : 'Generic';
    default:
      return 'Generic';
  }
}

export const mediaErrorText: Record<MediaPermissionErrorType, string> = {
  SystemPermissionDenied: 'Your computer blocks this browser from using the camera and microphone. Allow it in the system privacy settings, then reload.',
  UserPermissionDenied: 'Camera and microphone access was denied. Allow it in the address bar, then reload.',
  CouldNotStartVideoSource: 'The camera could not start. Another app may be using it.',
  Generic: 'The camera or microphone could not be used.',
};

/** Spec §4: 0 unknown, 1 ok, 2 selected device unavailable, 3 all devices unavailable. */
export const DevicePermissionStatus = { Unknown: 0, Ok: 1, SelectedUnavailable: 2, AllUnavailable: 3 } as const;
export type DevicePermissionStatus = (typeof DevicePermissionStatus)[keyof typeof DevicePermissionStatus];

export function devicePermissionStatus(input: {
  asked: boolean;
  failed: boolean;
  devices: readonly { deviceId: string }[];
  selected: string | null;
}): DevicePermissionStatus {
  if (!input.asked) return DevicePermissionStatus.Unknown;
  if (input.failed || input.devices.length === 0) return DevicePermissionStatus.AllUnavailable;
  if (input.selected !== null && !input.devices.some((d) => d.deviceId === input.selected)) return DevicePermissionStatus.SelectedUnavailable;
  return DevicePermissionStatus.Ok;
}

/**
 * The microphone a captured track really uses: Chromium reports the 'default' (or
 * 'communications') pseudo-device's id for the default choice, which is in no device list, so it
 * is resolved to the real device behind it (spec §4: 'default' resolves to the default device).
 */
export function capturedMicrophoneId(reported: string | undefined, allMicrophones: readonly DeviceLike[]): string | undefined {
  if (reported === undefined || (reported !== 'default' && reported !== 'communications')) return reported;
  return resolveMicrophoneId('default', allMicrophones) ?? reported;
}

export type AudioMode = 'music' | 'speech';

/** Spec §9: capture at 48 kHz; music is stereo with every processing off, speech has them on. */
export function audioConstraints(mode: AudioMode, deviceId: string | null): MediaTrackConstraints {
  const device = deviceId ? { deviceId: { exact: deviceId } } : {};
  const processing = mode === 'speech';
  return {
    ...device,
    sampleRate: { ideal: 48_000 },
    channelCount: mode === 'music' ? { ideal: 2 } : { ideal: 1 },
    echoCancellation: processing,
    autoGainControl: processing,
    noiseSuppression: processing,
  };
}

/**
 * The Opus parameters the page asks its peer to encode with (answer fmtp, as Chromium reads its
 * send settings from the remote description): music 128 kbit/s stereo without DTX, speech with DTX.
 * RED is never negotiated by the worker, so neither mode uses it.
 */
export function opusParameters(mode: AudioMode): string {
  return mode === 'music' ? 'stereo=1;sprop-stereo=1;maxaveragebitrate=128000;usedtx=0' : 'usedtx=1';
}

/** Adds the mode's Opus parameters to the fmtp of every Opus payload type of an SDP. */
export function withOpusParameters(sdp: string, mode: AudioMode): string {
  const opus = new Set([...sdp.matchAll(/a=rtpmap:(\d+) opus\/48000/gi)].map((m) => m[1]));
  const extra = opusParameters(mode);
  return sdp
    .split('\r\n')
    .map((line) => {
      const m = /^a=fmtp:(\d+) (.*)$/.exec(line);
      if (!m || !opus.has(m[1])) return line;
      const kept = m[2]!.split(';').filter((p) => !/^(stereo|sprop-stereo|maxaveragebitrate|usedtx)=/.test(p));
      return `a=fmtp:${m[1]} ${[...kept, extra].join(';')}`;
    })
    .join('\r\n');
}

/**
 * How much to scale a camera's encoding down so it is sent at the size the program needs
 * (room.sendSize): as much as both sides allow, never up, and never more than 8 times (the
 * browsers' limit is 16; smaller than 1/8 is not worth a tile).
 */
export function encodingScaleFor(captured: { width: number; height: number }, needed: { width: number; height: number }): number {
  const scale = Math.min(captured.width / needed.width, captured.height / needed.height);
  return Math.round(Math.min(8, Math.max(1, scale)) * 100) / 100;
}

/** Said while the session waits in the queue (room.waiting): a full fleet is not a broken studio. */
export const WAITING_FOR_WORKER = 'Every media worker is busy right now. Your studio connects as soon as one has room; until then nothing goes on air.';
