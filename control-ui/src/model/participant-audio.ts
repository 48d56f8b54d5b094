/** The slice of Web Storage the preference needs (the stores' FlagStorage). */
type FlagStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** Spec §3 "Participant audio preference stored locally by id": volume 0..1 (default 1), muted (default false). */
export interface ParticipantAudio {
  volume: number;
  muted: boolean;
}

export const PARTICIPANT_AUDIO_STORAGE_KEY = 'onair.participantAudio';
export const DEFAULT_PARTICIPANT_AUDIO: ParticipantAudio = { volume: 1, muted: false };
/** Spec §5: the guest slider runs 0 to 1 in steps of 0.01. */
export const GUEST_VOLUME_STEP = 0.01;

export function clampVolume(volume: number): number {
  if (!Number.isFinite(volume)) return DEFAULT_PARTICIPANT_AUDIO.volume;
  return Math.min(1, Math.max(0, Math.round(volume / GUEST_VOLUME_STEP) * GUEST_VOLUME_STEP));
}

/** Spec §5: moving the slider unmutes. */
export function withVolume(_current: ParticipantAudio, volume: number): ParticipantAudio {
  return { volume: clampVolume(volume), muted: false };
}

export function readParticipantAudio(storage: FlagStorage | undefined): Record<string, ParticipantAudio> {
  try {
    const raw = storage?.getItem(PARTICIPANT_AUDIO_STORAGE_KEY);
    const parsed = raw ? (JSON.parse(raw) as unknown) : {};
    const out: Record<string, ParticipantAudio> = {};
    if (parsed && typeof parsed === 'object') {
      for (const [id, value] of Object.entries(parsed as Record<string, unknown>)) {
        const v = value as { volume?: unknown; muted?: unknown } | null;
        if (v && typeof v.volume === 'number' && typeof v.muted === 'boolean') out[id] = { volume: clampVolume(v.volume), muted: v.muted };
      }
    }
    return out;
  } catch {
    return {};
  }
}

export function writeParticipantAudio(storage: FlagStorage | undefined, audio: Record<string, ParticipantAudio>): void {
  try {
    storage?.setItem(PARTICIPANT_AUDIO_STORAGE_KEY, JSON.stringify(audio));
  } catch {
    // Quota or privacy settings: the preference then lasts for this page only.
  }
}
