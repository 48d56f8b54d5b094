import { describe, expect, it } from 'vitest';
import { clampVolume, readParticipantAudio, withVolume, writeParticipantAudio, PARTICIPANT_AUDIO_STORAGE_KEY } from './participant-audio.ts';

function memory() {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), map };
}

describe('participant audio preference (spec §3, §5)', () => {
  it('clamps to 0..1 in steps of 0.01 and unmutes when the volume moves', () => {
    expect(clampVolume(1.7)).toBe(1);
    expect(clampVolume(-2)).toBe(0);
    expect(clampVolume(0.333)).toBeCloseTo(0.33, 10);
    expect(withVolume({ volume: 1, muted: true }, 0.4)).toEqual({ volume: 0.4, muted: false });
  });

  it('is remembered per participant and ignores what it cannot read', () => {
    const storage = memory();
    writeParticipantAudio(storage, { a: { volume: 0.25, muted: true } });
    expect(readParticipantAudio(storage)).toEqual({ a: { volume: 0.25, muted: true } });
    storage.setItem(PARTICIPANT_AUDIO_STORAGE_KEY, '{"b":{"volume":"loud"},"c":{"volume":3,"muted":false}}');
    expect(readParticipantAudio(storage)).toEqual({ c: { volume: 1, muted: false } });
    storage.setItem(PARTICIPANT_AUDIO_STORAGE_KEY, 'not json');
    expect(readParticipantAudio(storage)).toEqual({});
  });
});
