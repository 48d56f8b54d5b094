import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { planEntitlements } from '../plans.ts';
import { applyScenePatch, sceneShowsLogo } from './apply-patch.ts';
import { liveScenes, type SceneDocument } from './document.ts';
import type { LayerBox } from './layout.ts';
import { newProjectDocument } from './new-document.ts';
import {
  DEFAULT_SCENE_TEMPLATE,
  newProjectFromTemplate,
  sceneTemplateIds,
  sceneTemplates,
  sceneTemplateOps,
  sceneTemplateSummaries,
  type SceneTemplateId,
} from './scene-templates.ts';
import { validateSceneDocument } from './validate.ts';
import { verticalLayout } from './vertical.ts';

const plans = { Free: planEntitlements.Free, Premium: planEntitlements.Premium } as const;

function fromTemplate(templateId: SceneTemplateId, plan: keyof typeof plans): SceneDocument {
  return newProjectFromTemplate({ projectId: randomUUID(), resolution: '720p', ownerId: 'owner-1', templateId, newId: randomUUID }, plans[plan]);
}

/** Where a face is in a camera's box: the middle half across, the upper two thirds down. */
function faceOf(box: LayerBox): LayerBox {
  return { x: box.x + box.width / 4, y: box.y + box.height / 10, width: box.width / 2, height: (box.height * 6) / 10 };
}
const overlap = (a: LayerBox, b: LayerBox) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('scene templates', () => {
  it('ships Beam (the default), Just chatting, Interview, Podcast and five gameplay templates', () => {
    expect(DEFAULT_SCENE_TEMPLATE).toBe('Beam');
    expect(sceneTemplates.map((t) => t.id)).toEqual([...sceneTemplateIds]);
    expect(sceneTemplates.filter((t) => t.category === 'gameplay')).toHaveLength(5);
    expect(sceneTemplateSummaries().find((t) => t.id === 'Interview')?.sceneNames).toEqual(['Interview', 'Panel']);
  });

  for (const templateId of sceneTemplateIds) {
    for (const plan of ['Free', 'Premium'] as const) {
      it(`${templateId} on ${plan}: a new project passes the scene rules`, () => {
        const doc = fromTemplate(templateId, plan);
        expect(doc.version).toBe(0);
        // The rules a stored document is held to (one game source per scene among them).
        expect(validateSceneDocument(doc)).toMatchObject({ ok: true });
        const template = sceneTemplates.find((t) => t.id === templateId)!;
        expect(liveScenes(doc).map((s) => s.name)).toEqual(template.scenes.map((s) => s.name));
        expect(doc.activeSceneId).toBe(liveScenes(doc)[0]!.id);
        const kinds = new Map(doc.sources.map((s) => [s.id, s.kind]));
        for (const scene of liveScenes(doc)) {
          expect(scene.layers.filter((l) => kinds.get(l.sourceId) === 'game').length).toBeLessThanOrEqual(1);
          // The logo: on every scene on Free (spec §6), on none on Premium, and never over a face.
          expect(sceneShowsLogo(doc, scene)).toBe(plan === 'Free');
          const logo = scene.layers.find((l) => kinds.get(l.sourceId) === 'watermark');
          const logoOnTop = logo === undefined || logo.zIndex === scene.layers.length - 1;
          expect(logoOnTop).toBe(true);
          if (logo) {
            for (const person of scene.layers.filter((l) => kinds.get(l.sourceId) === 'webcam' || kinds.get(l.sourceId) === 'participant')) {
              expect(overlap(logo, faceOf(person)), `${scene.name}: logo over ${JSON.stringify(person)}`).toBe(false);
            }
          }
          // Every layer has its place on the vertical canvas too.
          const vertical = verticalLayout(scene, doc.sources);
          for (const layer of scene.layers) expect(vertical.get(layer.id)).toBeDefined();
        }
        // One camera, the owner's, whatever the number of scenes it is in.
        const cameras = doc.sources.filter((s) => s.kind === 'webcam');
        expect(cameras).toHaveLength(1);
        expect(cameras[0]!.settings).toMatchObject({ userId: 'owner-1', webcamDeviceId: 'default' });
      });
    }
  }

  it("Beam: the camera fills the frame under the logo at the spec's 30,30", () => {
    const doc = fromTemplate('Beam', 'Free');
    const [camera, logo] = doc.scenes[0]!.layers;
    expect(camera).toMatchObject({ x: 0, y: 0, width: 1280, height: 720, zIndex: 0 });
    expect(logo).toMatchObject({ x: 30, y: 30, width: 237, height: 62, zIndex: 1 });
  });

  it('gameplay: the game full frame with the camera over it in a corner, then chat and alerts slots (pages the creator points later)', () => {
    const doc = fromTemplate('Gameplay', 'Premium');
    const kinds = new Map(doc.sources.map((s) => [s.id, s]));
    const layers = doc.scenes[0]!.layers;
    expect(layers.map((l) => kinds.get(l.sourceId)!.kind)).toEqual(['game', 'webcam', 'webpage', 'webpage']);
    expect(layers[0]).toMatchObject({ x: 0, y: 0, width: 1280, height: 720 });
    expect(layers[1]).toMatchObject({ x: 936, y: 516, width: 320, height: 180 });
    expect(layers.slice(2).map((l) => kinds.get(l.sourceId)!.name)).toEqual(['Chat overlay', 'Alerts']);
    expect(doc.scenes[1]).toMatchObject({ name: 'Be right back', kind: 'brb' });
  });

  it("copying a template into a project adds its scenes, reuses the project's camera and logo, and leaves the active scene as it was", () => {
    const ids = { projectId: randomUUID(), sceneId: randomUUID(), watermarkSourceId: randomUUID(), watermarkLayerId: randomUUID() };
    const camera = { sourceId: randomUUID(), layerId: randomUUID(), userId: 'owner-1' };
    const doc = newProjectDocument({ ...ids, resolution: '720p', camera });
    const ops = sceneTemplateOps(doc, 'Podcast', { newId: randomUUID, entitlements: plans.Free, userId: 'owner-1' });
    const result = applyScenePatch(doc, { baseVersion: doc.version, ops }, plans.Free);
    if (!result.ok) throw new Error(result.rejection.message);
    expect(result.document.version).toBe(1);
    expect(liveScenes(result.document).map((s) => s.name)).toEqual(['Scene 1', 'Podcast', 'Host']);
    expect(result.document.activeSceneId).toBe(ids.sceneId);
    expect(result.document.sources.filter((s) => s.kind === 'webcam').map((s) => s.id)).toEqual([camera.sourceId]);
    expect(result.document.sources.filter((s) => s.kind === 'watermark').map((s) => s.id)).toEqual([ids.watermarkSourceId]);
    expect(result.document.sources.filter((s) => s.kind === 'participant').map((s) => s.name)).toEqual(['Guest 1']);
    expect(validateSceneDocument(result.document)).toMatchObject({ ok: true });
  });

  it("a template that would go over Free's three scenes is refused with the plan's words", () => {
    const doc = fromTemplate('Just chatting', 'Free');
    const result = applyScenePatch(
      doc,
      { baseVersion: 0, ops: sceneTemplateOps(doc, 'Interview', { newId: randomUUID, entitlements: plans.Free, userId: 'owner-1' }) },
      plans.Free,
    );
    expect(result).toMatchObject({ ok: false, rejection: { code: 'scene-limit-reached' } });
  });
});
