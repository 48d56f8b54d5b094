import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newProjectDocument, type SceneDocument } from '@onair/protocol';
import { countdownInPlan } from './session-runner.ts';

function withCountdown(active: 'countdown' | 'first'): { doc: SceneDocument; countdownId: string } {
  const ids = { projectId: randomUUID(), sceneId: randomUUID(), watermarkSourceId: randomUUID(), watermarkLayerId: randomUUID() };
  const doc = newProjectDocument({ ...ids, resolution: '720p' });
  const countdownId = randomUUID();
  doc.scenes.push({
    id: countdownId,
    name: 'Countdown',
    order: 1,
    kind: 'countdown',
    countdown: { seconds: 60, nextSceneId: null },
    deletedAt: null,
    layers: [],
  });
  return { doc: { ...doc, activeSceneId: active === 'countdown' ? countdownId : ids.sceneId }, countdownId };
}

describe('the countdown in the render plan', () => {
  it("draws the api's end time while its countdown scene is shown", () => {
    const { doc, countdownId } = withCountdown('countdown');
    expect(countdownInPlan(doc, { sceneId: countdownId, endsAt: 1_800_000_000_000 })).toEqual({ endsAt: 1_800_000_000_000 });
  });

  it('draws nothing for another scene, a countdown the api is not timing, or one of another scene', () => {
    const shown = withCountdown('countdown');
    expect(countdownInPlan(shown.doc, undefined)).toBeUndefined();
    expect(countdownInPlan(shown.doc, { sceneId: randomUUID(), endsAt: 1 })).toBeUndefined();
    const left = withCountdown('first');
    expect(countdownInPlan(left.doc, { sceneId: left.countdownId, endsAt: 1 })).toBeUndefined();
    const deleted = { ...shown.doc, scenes: shown.doc.scenes.map((s) => (s.id === shown.countdownId ? { ...s, deletedAt: '2026-11-25T12:00:00.000Z' } : s)) };
    expect(countdownInPlan(deleted, { sceneId: shown.countdownId, endsAt: 1 })).toBeUndefined();
  });
});
