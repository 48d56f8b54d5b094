import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  applyScenePatchFollowingLayouts,
  feedArrivedOps,
  newProjectFromTemplate,
  planEntitlements,
  sceneTemplateIds,
  sceneToRenderPlan,
  type PlanPlacement,
  type SceneDocument,
} from '@onair/protocol';
import { MediaPorts } from '../webrtc/media-ports.ts';
import { createInputResolver } from './input-resolver.ts';

function area(p: PlanPlacement): number {
  return p.width * p.height;
}

function feedArrived(templateId: (typeof sceneTemplateIds)[number]): SceneDocument {
  const doc = newProjectFromTemplate({ projectId: randomUUID(), resolution: '720p', ownerId: 'owner-1', templateId, newId: randomUUID }, planEntitlements.Free);
  const result = applyScenePatchFollowingLayouts(doc, { baseVersion: doc.version, ops: feedArrivedOps(doc, randomUUID) }, planEntitlements.Free);
  if (!result.ok) throw new Error(result.rejection.code);
  return result.document;
}

describe('the inputs of a new project a feed arrived at, nobody in the studio (issue 51)', () => {
  for (const templateId of sceneTemplateIds) {
    it(`${templateId}: no picture the program starts with (an image, a placeholder) covers more than a corner of the game`, () => {
      const doc = feedArrived(templateId);
      const gameId = doc.sources.find((s) => s.kind === 'game')!.id;
      // The feed is there, nobody else.
      const plan = sceneToRenderPlan(doc, createInputResolver(new MediaPorts(), '/nonexistent'), [], { present: new Set([gameId]) });
      const inputs = new Map(plan.inputs.map((i) => [i.id, i]));
      const scene = plan.scenes.find((s) => s.id === plan.activeSceneId)!;
      const game = scene.placements.find((p) => p.inputId === gameId)!;
      expect(game.visible).toBe(true);
      // Until something sends, a live input draws its placeholder (unless its person is away); an image draws itself.
      const opaque = (p: PlanPlacement) => {
        const input = inputs.get(p.inputId)!;
        if (input.kind === 'image') return true;
        return input.kind === 'rtp' && input.video?.placeholder !== undefined && !plan.absentInputs.includes(p.inputId);
      };
      const cover = scene.placements.filter((p) => p.zorder > game.zorder && p.visible && p.alpha > 0 && opaque(p));
      for (const p of cover) expect(area(p), `${doc.sources.find((s) => s.id === p.inputId)?.name} over the game`).toBeLessThanOrEqual(area(game) / 4);
    });
  }

  it("a person's card carries the name the studio shows for them; a camera without one keeps the plain card", () => {
    const doc = feedArrived('Gameplay: duo');
    const resolve = createInputResolver(new MediaPorts(), '/nonexistent');
    const guest = doc.sources.find((s) => s.kind === 'participant')!;
    const host = doc.sources.find((s) => s.kind === 'webcam')!;
    if (guest.kind !== 'participant') throw new Error('not a guest');
    expect(resolve({ ...guest, settings: { ...guest.settings, displayName: 'Ada Lovelace' } })).toMatchObject({ video: { placeholderLabel: 'Ada Lovelace' } });
    expect(resolve(host)).toMatchObject({ kind: 'rtp', video: { placeholder: expect.any(String) } });
    expect(resolve(host)).not.toHaveProperty('video.placeholderLabel');
  });

  it('a web page gets its input once it has an address', () => {
    const doc = feedArrived('Gameplay');
    const page = doc.sources.find((s) => s.kind === 'webpage')!;
    const resolve = createInputResolver(new MediaPorts(), '/nonexistent');
    expect(resolve(page)).toBeUndefined();
    if (page.kind !== 'webpage') throw new Error('not a page');
    const addressed = { ...page, settings: { ...page.settings, config: { ...page.settings.config, url: 'https://example.com/chat' } } };
    expect(resolve(addressed)).toMatchObject({ kind: 'rtp', video: { keyColor: 'green' } });
  });
});
