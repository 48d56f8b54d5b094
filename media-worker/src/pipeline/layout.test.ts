import { describe, expect, it } from 'vitest';
import { renderPlanSchema, type RenderPlan } from '@onair/protocol';
import { AudioFader } from './audio-fader.ts';
import { audioTargets, easeInOut, planNeedsNewProcess, videoLayout } from './layout.ts';
import type { GstPad } from '../gst/gst.ts';

const plan = (activeSceneId = 'one'): RenderPlan =>
  renderPlanSchema.parse({
    profile: { width: 1280, height: 720, fps: 30, videoBitrateKbps: 3000, audioBitrateKbps: 128 },
    inputs: [
      { id: 'cam', kind: 'test-pattern', width: 640, height: 360, toneHz: 440 },
      { id: 'logo', kind: 'image', path: '/srv/logo.png' },
    ],
    scenes: [
      { id: 'one', placements: [{ inputId: 'cam', x: 10, y: 20, width: 640, height: 360, zorder: 3, alpha: 0.5 }] },
      { id: 'two', placements: [{ inputId: 'logo', x: 0, y: 0, width: 100, height: 50, zorder: 0, visible: false }] },
    ],
    activeSceneId,
    audio: [{ inputId: 'cam', volume: 0.8, muted: false }],
  });

describe('videoLayout', () => {
  it('places the active scene above the background and hides everything else', () => {
    const layout = videoLayout(plan());
    expect(layout.get('cam')).toEqual({
      xpos: 10,
      ypos: 20,
      width: 640,
      height: 360,
      zorder: 4,
      alpha: 0.5,
      cornerRadius: 0,
      crop: { top: 0, right: 0, bottom: 0, left: 0 },
      fit: 'fill',
    });
    expect(layout.get('logo')?.alpha).toBe(0);
    const two = videoLayout(plan('two'));
    expect(two.get('cam')?.alpha).toBe(0);
    expect(two.get('logo')).toMatchObject({ alpha: 0, zorder: 1 });
  });

  it("carries the placement's corner radius, crop and fit", () => {
    const base = plan();
    const crop = { top: 1, right: 2, bottom: 3, left: 4 };
    const shaped = {
      ...base,
      scenes: base.scenes.map((s) => ({ ...s, placements: s.placements.map((p) => ({ ...p, cornerRadius: 12.8, crop, fit: 'cover' as const })) })),
    };
    expect(videoLayout(shaped).get('cam')).toMatchObject({ cornerRadius: 12.8, crop, fit: 'cover' });
  });
});

describe('audioTargets', () => {
  it('makes a source audible only while its scene shows it', () => {
    expect(audioTargets(plan()).get('cam')).toEqual({ volume: 0.8, muted: false, audible: true });
    expect(audioTargets(plan('two')).get('cam')).toEqual({ volume: 0.8, muted: false, audible: false });
  });
});

describe('planNeedsNewProcess', () => {
  it('takes a new process for a new output profile only, not for inputs, placements or scene switches', () => {
    expect(planNeedsNewProcess(plan(), plan('two'))).toBe(false);
    expect(planNeedsNewProcess(plan(), { ...plan(), profile: { ...plan().profile, width: 1920, height: 1080 } })).toBe(true);
    // Inputs join and leave the running pipeline.
    expect(planNeedsNewProcess(plan(), { ...plan(), inputs: plan().inputs.slice(1) })).toBe(false);
  });
});

describe('renderPlanSchema', () => {
  it('refuses placements of unknown inputs and an active scene that does not exist', () => {
    const base = plan();
    expect(renderPlanSchema.safeParse({ ...base, activeSceneId: 'nope' }).success).toBe(false);
    expect(
      renderPlanSchema.safeParse({ ...base, scenes: [{ id: 'one', placements: [{ inputId: 'ghost', x: 0, y: 0, width: 1, height: 1, zorder: 0 }] }] }).success,
    ).toBe(false);
  });
});

describe('AudioFader', () => {
  it('fades a source out over the scene fade with an ease-in-out curve', () => {
    // A plain object stands in for the audiomixer pad: the fader only writes two fields.
    const pad = { name: 'sink_1', volume: 0, mute: false } as unknown as GstPad;
    const fader = new AudioFader(1000);
    fader.add('cam', pad, { volume: 0.8, muted: false, audible: true });
    expect(pad.volume).toBeCloseTo(0.8);
    fader.set('cam', { volume: 0.8, muted: false, audible: false }, 0);
    fader.advance(500);
    expect(pad.volume).toBeCloseTo(0.4);
    fader.advance(250);
    expect(pad.volume).toBeCloseTo(0.8 * (1 - easeInOut(0.25)));
    fader.advance(1000);
    expect(pad.volume).toBe(0);
    fader.set('cam', { volume: 0.8, muted: true, audible: false });
    expect(pad.mute).toBe(true);
    fader.stop();
  });
});
