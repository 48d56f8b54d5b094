import { describe, expect, it } from 'vitest';
import type { GstPad } from '../gst/gst.ts';
import { AudioFader, SCENE_FADE_MS } from './audio-fader.ts';

/** An audiomixer pad as the fader sees it: two writable properties. */
const pad = () => ({ volume: -1, mute: true }) as unknown as GstPad & { volume: number; mute: boolean };

describe('AudioFader (spec §4, §9: fade 1000 ms, ease-in-out)', () => {
  it('starts a guest source at 0 and brings it to its volume over the fade', () => {
    const fader = new AudioFader();
    const guest = pad();
    fader.add('guest', guest, { volume: 0.8, muted: false, audible: true }, { fadeIn: true, now: 0 });
    expect(guest.volume).toBe(0);
    expect(guest.mute).toBe(false);
    fader.advance(SCENE_FADE_MS / 2);
    expect(guest.volume).toBeCloseTo(0.4, 5);
    fader.advance(SCENE_FADE_MS);
    expect(guest.volume).toBeCloseTo(0.8, 5);
    fader.stop();
  });

  it('keeps other sources at their level from the start, and fades a hidden scene to 0', () => {
    const fader = new AudioFader();
    const mic = pad();
    fader.add('mic', mic, { volume: 1, muted: false, audible: true });
    expect(mic.volume).toBe(1);
    fader.set('mic', { volume: 1, muted: false, audible: false }, 0);
    fader.advance(SCENE_FADE_MS / 4);
    expect(mic.volume).toBeGreaterThan(0.5);
    fader.advance(SCENE_FADE_MS);
    expect(mic.volume).toBe(0);
    fader.stop();
  });

  it('a guest whose scene is hidden stays silent', () => {
    const fader = new AudioFader();
    const guest = pad();
    fader.add('guest', guest, { volume: 1, muted: false, audible: false }, { fadeIn: true, now: 0 });
    fader.advance(SCENE_FADE_MS);
    expect(guest.volume).toBe(0);
    fader.stop();
  });
});
