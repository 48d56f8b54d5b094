import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { planEntitlements } from '../plans.ts';
import { applyAcceptedPatch, applyScenePatch, KEPT_DELETED_SCENES, type ApplyScenePatchResult } from './apply-patch.ts';
import type { SceneDocument } from './document.ts';
import { newProjectDocument } from './new-document.ts';
import { scenePatchSchema, type SceneOp } from './patch.ts';
import { validateSceneDocument } from './validate.ts';

const free = planEntitlements.Free;
const premium = planEntitlements.Premium;

function project(): { doc: SceneDocument; sceneId: string; watermarkSourceId: string; watermarkLayerId: string } {
  const ids = { projectId: randomUUID(), sceneId: randomUUID(), watermarkSourceId: randomUUID(), watermarkLayerId: randomUUID() };
  return { ...ids, doc: newProjectDocument({ ...ids, resolution: '720p' }) };
}

function ok(result: ApplyScenePatchResult): Extract<ApplyScenePatchResult, { ok: true }> {
  if (!result.ok) throw new Error(`patch rejected: ${result.rejection.code} ${result.rejection.message}`);
  expect(validateSceneDocument(result.document)).toMatchObject({ ok: true });
  return result;
}

function rejected(result: ApplyScenePatchResult) {
  if (result.ok) throw new Error('patch was accepted');
  return result.rejection;
}

const apply = (doc: SceneDocument, ops: SceneOp[], entitlements = free) => applyScenePatch(doc, { baseVersion: doc.version, ops }, entitlements);

/** Adds a source of `kind` and places it in `sceneId`; returns the new document and the ids. */
function place(doc: SceneDocument, sceneId: string, source: Extract<SceneOp, { op: 'addSource' }>['source'], entitlements = free) {
  const layerId = randomUUID();
  const result = ok(
    apply(
      doc,
      [
        { op: 'addSource', source },
        { op: 'addLayer', sceneId, layer: { id: layerId, sourceId: source.id } },
      ],
      entitlements,
    ),
  );
  const layer = result.document.scenes.find((s) => s.id === sceneId)?.layers.find((l) => l.id === layerId);
  if (!layer) throw new Error('layer missing');
  return { doc: result.document, layer, layerId, sourceId: source.id, ops: result.ops };
}

describe('applyScenePatch: versions and atomicity', () => {
  it('bumps the version and leaves the input document untouched', () => {
    const { doc, sceneId } = project();
    const before = structuredClone(doc);
    const result = ok(apply(doc, [{ op: 'renameScene', sceneId, name: 'Intro' }]));
    expect(result.document.version).toBe(1);
    expect(result.document.scenes[0]?.name).toBe('Intro');
    expect(doc).toEqual(before);
  });

  it('refuses a stale base version and says which version is current', () => {
    const { doc, sceneId } = project();
    const v1 = ok(apply(doc, [{ op: 'renameScene', sceneId, name: 'A' }])).document;
    const rejection = rejected(applyScenePatch(v1, { baseVersion: 0, ops: [{ op: 'renameScene', sceneId, name: 'B' }] }, free));
    expect(rejection).toMatchObject({ code: 'stale-version', error: 'CONFLICT', details: { currentVersion: 1, baseVersion: 0 } });
  });

  it('applies all ops or none: a later refused op discards the earlier ones', () => {
    const { doc, sceneId } = project();
    const result = apply(doc, [
      { op: 'renameScene', sceneId, name: 'Changed' },
      { op: 'renameScene', sceneId: randomUUID(), name: 'Nope' },
    ]);
    expect(rejected(result)).toMatchObject({ code: 'scene-not-found', opIndex: 1 });
    expect(doc.scenes[0]?.name).toBe('Scene 1');
  });
});

describe('applyScenePatch: sources get the defaults of spec §3', () => {
  it('a camera gets exactly the spec defaults and the label as name', () => {
    const { doc, sceneId } = project();
    const id = randomUUID();
    const { doc: next } = place(doc, sceneId, { id, kind: 'webcam' });
    expect(next.sources.find((s) => s.id === id)).toEqual({
      id,
      kind: 'webcam',
      name: 'Camera',
      settings: {
        opacity: 1,
        volume: 1,
        muted: false,
        webcamDeviceId: null,
        microphoneDeviceId: 'default',
        displayName: '',
        userId: null,
        mirrorCamera: false,
      },
    });
  });

  it.each([
    ['screenshare', { opacity: 1, volume: 1, muted: false, displayName: '', userId: null, videoTrackId: null, audioTrackId: null }],
    ['microphone', { volume: 1, muted: false, microphoneDeviceId: null, displayName: '', userId: null, optimizeForMusic: true }],
    ['game', { opacity: 1, volume: 1, muted: false, participantId: null, displayName: '' }],
    ['participant', { opacity: 1, volume: 1, muted: false, userId: null, displayName: '' }],
    ['webpage', { opacity: 1, config: { url: '', title: '', canPreviewUrl: false, mode: 'scene-loaded' } }],
  ] as const)('%s gets the spec defaults', (kind, settings) => {
    const { doc, sceneId } = project();
    const id = randomUUID();
    const { doc: next } = place(doc, sceneId, { id, kind });
    expect(next.sources.find((s) => s.id === id)?.settings).toEqual(settings);
  });

  it('publishes the filled-in source so a replay needs no defaults of its own', () => {
    const { doc, sceneId } = project();
    const { ops } = place(doc, sceneId, { id: randomUUID(), kind: 'microphone', settings: { volume: 3 } });
    expect(ops[0]).toMatchObject({ op: 'addSource', source: { name: 'Audio', settings: { volume: 1, optimizeForMusic: true } } });
  });

  it('refuses an image without an address, and settings of another kind', () => {
    const { doc, watermarkSourceId } = project();
    expect(
      rejected(apply(doc, [{ op: 'addSource', source: { id: randomUUID(), kind: 'image', settings: { purpose: 'background' } } }], premium)),
    ).toMatchObject({
      code: 'invalid-settings',
      error: 'SCENE_RULE_VIOLATED',
    });
    expect(rejected(apply(doc, [{ op: 'updateSource', sourceId: watermarkSourceId, settings: { kind: 'webcam', muted: true } }]))).toMatchObject({
      code: 'source-kind-mismatch',
      message: 'These settings are for a different kind of source.',
    });
  });
});

describe('applyScenePatch: layout of new layers (spec §9)', () => {
  it.each([
    ['webcam', { x: 40, y: 40, width: 640, height: 360 }],
    ['screenshare', { x: 40, y: 40, width: 640, height: 360 }],
    ['participant', { x: 40, y: 40, width: 640, height: 360 }],
    ['game', { x: 40, y: 40, width: 640, height: 360 }],
    ['webpage', { x: 200, y: 36, width: 852, height: 480 }],
    ['microphone', { x: 40, y: 40, width: 0, height: 0 }],
  ] as const)('a %s layer starts at its default placement', (kind, placement) => {
    const { doc, sceneId } = project();
    expect(place(doc, sceneId, { id: randomUUID(), kind }).layer).toMatchObject(placement);
  });

  it('the logo of a new project is 237x62 at 30,30', () => {
    const { doc } = project();
    expect(doc.scenes[0]?.layers[0]).toMatchObject({ x: 30, y: 30, width: 237, height: 62, visible: true, opacity: 1 });
  });

  it('a new layer goes on top unless a position in the stack is given', () => {
    const { doc, sceneId, watermarkLayerId } = project();
    const cam = place(doc, sceneId, { id: randomUUID(), kind: 'webcam' });
    expect(cam.layer.zIndex).toBe(1);
    const bottomId = randomUUID();
    const sourceId = randomUUID();
    const next = ok(
      apply(cam.doc, [
        { op: 'addSource', source: { id: sourceId, kind: 'screenshare' } },
        { op: 'addLayer', sceneId, layer: { id: bottomId, sourceId, zIndex: 0 } },
      ]),
    ).document;
    const order = next.scenes[0]?.layers.toSorted((a, b) => a.zIndex - b.zIndex).map((l) => l.id);
    expect(order).toEqual([bottomId, watermarkLayerId, cam.layerId]);
  });
});

describe('applyScenePatch: rules of spec §5', () => {
  it("refuses a second game source in a scene with the spec's message", () => {
    const { doc, sceneId } = project();
    const first = place(doc, sceneId, { id: randomUUID(), kind: 'game' });
    const secondId = randomUUID();
    const rejection = rejected(
      apply(first.doc, [
        { op: 'addSource', source: { id: secondId, kind: 'game' } },
        { op: 'addLayer', sceneId, layer: { id: randomUUID(), sourceId: secondId } },
      ]),
    );
    expect(rejection).toMatchObject({
      code: 'one-game-source-per-scene',
      error: 'SCENE_RULE_VIOLATED',
      message: 'You can only add one game source to each scene',
      opIndex: 1,
    });
  });

  it('allows one game source in each of two scenes', () => {
    const { doc, sceneId, watermarkSourceId } = project();
    const first = place(doc, sceneId, { id: randomUUID(), kind: 'game' });
    const scene2 = randomUUID();
    const next = ok(
      apply(first.doc, [
        { op: 'addScene', sceneId: scene2, name: 'Two' },
        { op: 'addLayer', sceneId: scene2, layer: { id: randomUUID(), sourceId: watermarkSourceId } },
        { op: 'addLayer', sceneId: scene2, layer: { id: randomUUID(), sourceId: first.sourceId } },
      ]),
    );
    expect(next.document.scenes[1]?.layers).toHaveLength(2);
  });

  it('keeps a browser source at least 852x480', () => {
    const { doc, sceneId } = project();
    const page = place(doc, sceneId, { id: randomUUID(), kind: 'webpage', settings: { config: { url: 'https://example.com/overlay' } } });
    const shrink = (width: number, height: number) => apply(page.doc, [{ op: 'updateLayer', sceneId, layerId: page.layerId, changes: { width, height } }]);
    expect(rejected(shrink(851, 480))).toMatchObject({ code: 'browser-source-too-small', message: 'A browser source must be at least 852 wide and 480 high.' });
    expect(rejected(shrink(900, 479)).code).toBe('browser-source-too-small');
    expect(ok(shrink(852, 480)).document.scenes[0]?.layers.find((l) => l.id === page.layerId)).toMatchObject({ width: 852, height: 480 });
    expect(
      rejected(
        apply(doc, [
          { op: 'addSource', source: { id: page.sourceId, kind: 'webpage' } },
          { op: 'addLayer', sceneId, layer: { id: randomUUID(), sourceId: page.sourceId, width: 400, height: 300 } },
        ]),
      ).code,
    ).toBe('browser-source-too-small');
  });

  it('refuses a browser source pointed at a private address', () => {
    const { doc } = project();
    for (const url of [
      'http://localhost:8080/',
      'http://127.0.0.1/',
      'http://10.1.2.3/',
      'http://192.168.1.1/',
      'http://[::1]/',
      'http://169.254.169.254/latest',
    ]) {
      expect(rejected(apply(doc, [{ op: 'addSource', source: { id: randomUUID(), kind: 'webpage', settings: { config: { url } } } }])).code).toBe(
        'private-address',
      );
    }
  });

  it('lets a browser source load the deployment’s own overlay pages on a loopback address, and nothing else private', () => {
    const { doc } = project();
    const own = (url: string) => url === 'http://localhost:8080/overlay/alerts/x?key=k&onair-sig=good';
    const add = (url: string) =>
      applyScenePatch(
        doc,
        { baseVersion: doc.version, ops: [{ op: 'addSource', source: { id: randomUUID(), kind: 'webpage', settings: { config: { url } } } }] },
        free,
        { pageUrlTrusted: own },
      );
    expect(add('http://localhost:8080/overlay/alerts/x?key=k&onair-sig=good').ok).toBe(true);
    expect(rejected(add('http://localhost:8080/overlay/alerts/x?key=k&onair-sig=bad')).code).toBe('private-address');
    expect(rejected(add('http://localhost:8081/')).code).toBe('private-address');
    expect(rejected(add('http://127.0.0.1:8080/')).code).toBe('private-address');
  });

  it('a visible layer cannot collapse to nothing; an audio source takes no room', () => {
    const { doc, sceneId } = project();
    const cam = place(doc, sceneId, { id: randomUUID(), kind: 'webcam' });
    expect(rejected(apply(cam.doc, [{ op: 'updateLayer', sceneId, layerId: cam.layerId, changes: { width: 0 } }])).code).toBe('layer-too-small');
  });

  it('clamps volume to 0..1 in the document and in the published op', () => {
    const { doc, sceneId } = project();
    const cam = place(doc, sceneId, { id: randomUUID(), kind: 'webcam' });
    for (const [sent, stored] of [
      [2, 1],
      [-0.5, 0],
      [0.25, 0.25],
    ] as const) {
      const result = ok(apply(cam.doc, [{ op: 'updateSource', sourceId: cam.sourceId, settings: { kind: 'webcam', volume: sent } }]));
      expect(result.document.sources.find((s) => s.id === cam.sourceId)?.settings).toMatchObject({ volume: stored, muted: false });
      expect(result.ops[0]).toMatchObject({ settings: { kind: 'webcam', volume: stored } });
    }
  });

  it("strips the 'source-' prefix of a game participant id", () => {
    const { doc, sceneId } = project();
    const game = place(doc, sceneId, { id: randomUUID(), kind: 'game', settings: { participantId: 'source-console-1' } });
    expect(game.doc.sources.find((s) => s.id === game.sourceId)?.settings).toMatchObject({ participantId: 'console-1' });
    const updated = ok(apply(game.doc, [{ op: 'updateSource', sourceId: game.sourceId, settings: { kind: 'game', participantId: 'source-xbox' } }]));
    expect(updated.document.sources.find((s) => s.id === game.sourceId)?.settings).toMatchObject({ participantId: 'xbox' });
    expect(updated.ops[0]).toMatchObject({ settings: { participantId: 'xbox' } });
  });

  it('changes one setting without resetting the others', () => {
    const { doc, sceneId } = project();
    const cam = place(doc, sceneId, { id: randomUUID(), kind: 'webcam', settings: { mirrorCamera: true, webcamDeviceId: 'cam-1' } });
    const next = ok(apply(cam.doc, [{ op: 'updateSource', sourceId: cam.sourceId, settings: { kind: 'webcam', muted: true } }]));
    expect(next.document.sources.find((s) => s.id === cam.sourceId)?.settings).toMatchObject({ mirrorCamera: true, webcamDeviceId: 'cam-1', muted: true });
    const page = place(doc, sceneId, { id: randomUUID(), kind: 'webpage', settings: { config: { url: 'https://example.com/', title: 'Alerts' } } });
    const mode = ok(apply(page.doc, [{ op: 'updateSource', sourceId: page.sourceId, settings: { kind: 'webpage', config: { mode: 'keep-loaded' } } }]));
    expect(mode.document.sources.find((s) => s.id === page.sourceId)?.settings).toMatchObject({
      config: { url: 'https://example.com/', title: 'Alerts', mode: 'keep-loaded' },
    });
  });
});

describe('applyScenePatch: scenes', () => {
  it('adds, renames, reorders and switches scenes', () => {
    const { doc, sceneId, watermarkSourceId } = project();
    const b = randomUUID();
    let next = ok(
      apply(doc, [
        { op: 'addScene', sceneId: b, name: 'B' },
        { op: 'addLayer', sceneId: b, layer: { id: randomUUID(), sourceId: watermarkSourceId } },
        { op: 'renameScene', sceneId, name: 'A' },
      ]),
    ).document;
    expect(next.scenes.map((s) => [s.name, s.order])).toEqual([
      ['A', 0],
      ['B', 1],
    ]);
    next = ok(
      apply(next, [
        { op: 'reorderScenes', sceneIds: [b, sceneId] },
        { op: 'setActiveScene', sceneId: b },
      ]),
    ).document;
    expect(next.scenes.map((s) => s.name)).toEqual(['B', 'A']);
    expect(next.activeSceneId).toBe(b);
    expect(rejected(apply(next, [{ op: 'reorderScenes', sceneIds: [b, b] }]))).toMatchObject({ code: 'invalid-order' });
  });

  it('a deleted scene is kept, refuses further edits and hands the active role on', () => {
    const { doc, sceneId, watermarkSourceId } = project();
    const b = randomUUID();
    const two = ok(
      apply(doc, [
        { op: 'addScene', sceneId: b, name: 'B' },
        { op: 'addLayer', sceneId: b, layer: { id: randomUUID(), sourceId: watermarkSourceId } },
      ]),
    ).document;
    const removed = ok(
      applyScenePatch(two, { baseVersion: two.version, ops: [{ op: 'removeScene', sceneId }] }, free, { now: new Date('2026-11-22T08:00:00.000Z') }),
    );
    expect(removed.document.activeSceneId).toBe(b);
    expect(removed.document.scenes.find((s) => s.id === sceneId)?.deletedAt).toBe('2026-11-22T08:00:00.000Z');
    expect(removed.ops[0]).toEqual({ op: 'removeScene', sceneId, deletedAt: '2026-11-22T08:00:00.000Z' });
    const late = rejected(apply(removed.document, [{ op: 'renameScene', sceneId, name: 'Too late' }]));
    expect(late).toMatchObject({ code: 'scene-deleted', message: 'This scene was deleted.', error: 'SCENE_RULE_VIOLATED' });
    expect(rejected(apply(removed.document, [{ op: 'removeScene', sceneId: b }]))).toMatchObject({
      code: 'last-scene',
      message: 'A project needs at least one scene.',
    });
  });

  it('refuses an id that is already used', () => {
    const { doc, sceneId, watermarkSourceId } = project();
    expect(rejected(apply(doc, [{ op: 'addScene', sceneId, name: 'Again' }])).code).toBe('duplicate-id');
    expect(rejected(apply(doc, [{ op: 'addSource', source: { id: watermarkSourceId, kind: 'webcam' } }])).code).toBe('duplicate-id');
  });

  it('reorders layers bottom to top', () => {
    const { doc, sceneId, watermarkLayerId } = project();
    const cam = place(doc, sceneId, { id: randomUUID(), kind: 'webcam' });
    const next = ok(apply(cam.doc, [{ op: 'reorderLayers', sceneId, layerIds: [cam.layerId, watermarkLayerId] }])).document;
    expect(next.scenes[0]?.layers.map((l) => [l.id, l.zIndex])).toEqual([
      [cam.layerId, 0],
      [watermarkLayerId, 1],
    ]);
    expect(rejected(apply(cam.doc, [{ op: 'reorderLayers', sceneId, layerIds: [cam.layerId] }])).code).toBe('invalid-order');
  });

  it('removing a source takes it out of every scene', () => {
    const { doc, sceneId } = project();
    const cam = place(doc, sceneId, { id: randomUUID(), kind: 'webcam' });
    const next = ok(apply(cam.doc, [{ op: 'removeSource', sourceId: cam.sourceId }])).document;
    expect(next.sources.some((s) => s.id === cam.sourceId)).toBe(false);
    expect(next.scenes[0]?.layers.some((l) => l.sourceId === cam.sourceId)).toBe(false);
  });
});

describe('applyScenePatch: plan limits read entitlements', () => {
  function addScenes(doc: SceneDocument, watermarkSourceId: string, count: number, entitlements = free) {
    let next = doc;
    for (let i = 0; i < count; i++) {
      const id = randomUUID();
      const result = apply(
        next,
        [
          { op: 'addScene', sceneId: id, name: `S${i}` },
          { op: 'addLayer', sceneId: id, layer: { id: randomUUID(), sourceId: watermarkSourceId } },
        ],
        entitlements,
      );
      if (!result.ok) return { doc: next, rejection: result.rejection };
      next = result.document;
    }
    return { doc: next, rejection: undefined };
  }

  it('Free keeps up to 3 scenes', () => {
    const { doc, watermarkSourceId } = project();
    const { doc: three, rejection } = addScenes(doc, watermarkSourceId, 3);
    expect(three.scenes).toHaveLength(3);
    expect(rejection).toMatchObject({
      code: 'scene-limit-reached',
      error: 'PLAN_LIMIT_REACHED',
      message: 'Your plan allows up to 3 scenes. Upgrade to add more.',
    });
  });

  it('Premium keeps up to 20 scenes', () => {
    const { doc, watermarkSourceId } = project();
    const { doc: twenty, rejection } = addScenes(doc, watermarkSourceId, 20, premium);
    expect(twenty.scenes).toHaveLength(20);
    expect(rejection).toMatchObject({ code: 'scene-limit-reached', message: 'Your plan allows up to 20 scenes. Upgrade to add more.' });
  });

  it("a scheduled broadcast's scene (the api's own) is outside the limit, and only the api may add one", () => {
    const { doc, watermarkSourceId } = project();
    const { doc: three } = addScenes(doc, watermarkSourceId, 2);
    const scheduled = randomUUID();
    const ops: SceneOp[] = [
      { op: 'addScene', sceneId: scheduled, name: 'Scheduled: show.mp4', kind: 'scheduled' },
      { op: 'addLayer', sceneId: scheduled, layer: { id: randomUUID(), sourceId: watermarkSourceId } },
    ];
    expect(rejected(apply(three, ops))).toMatchObject({ code: 'scene-kind-reserved', error: 'SCENE_RULE_VIOLATED' });
    const withIt = ok(applyScenePatch(three, { baseVersion: three.version, ops }, free, { scheduledScenes: true }));
    expect(withIt.document.scenes).toHaveLength(4);
    // Studios and workers replay what the api accepted.
    expect(applyAcceptedPatch(three, { projectId: three.projectId, version: three.version + 1, ops: withIt.ops })).toEqual({
      ok: true,
      document: withIt.document,
    });
    // The creator's own fourth scene is still over the Free limit of 3; removing the scheduled one changes nothing to that.
    expect(addScenes(withIt.document, watermarkSourceId, 1).rejection).toMatchObject({ code: 'scene-limit-reached' });
    const without = ok(apply(withIt.document, [{ op: 'removeScene', sceneId: scheduled }])).document;
    expect(addScenes(without, watermarkSourceId, 1).rejection).toMatchObject({ code: 'scene-limit-reached' });
  });

  it('a deleted scene frees its place', () => {
    const { doc, sceneId, watermarkSourceId } = project();
    const { doc: three } = addScenes(doc, watermarkSourceId, 2);
    const two = ok(apply(three, [{ op: 'removeScene', sceneId }])).document;
    expect(addScenes(two, watermarkSourceId, 1).rejection).toBeUndefined();
  });

  it('Free cannot remove, hide, fade, shrink or move the logo off the canvas', () => {
    const { doc, sceneId, watermarkLayerId, watermarkSourceId } = project();
    const attempts: SceneOp[] = [
      { op: 'removeLayer', sceneId, layerId: watermarkLayerId },
      { op: 'removeSource', sourceId: watermarkSourceId },
      { op: 'updateLayer', sceneId, layerId: watermarkLayerId, changes: { visible: false } },
      { op: 'updateLayer', sceneId, layerId: watermarkLayerId, changes: { opacity: 0.5 } },
      { op: 'updateLayer', sceneId, layerId: watermarkLayerId, changes: { width: 100, height: 20 } },
      { op: 'updateLayer', sceneId, layerId: watermarkLayerId, changes: { x: 1200 } },
    ];
    for (const op of attempts) {
      expect(rejected(apply(doc, [op]))).toMatchObject({
        code: 'logo-required',
        error: 'PLAN_LIMIT_REACHED',
        message: 'Your plan shows the OnAir logo on all streams. Upgrade to hide or replace it.',
      });
    }
    expect(ok(apply(doc, [{ op: 'updateLayer', sceneId, layerId: watermarkLayerId, changes: { x: 1000, y: 600 } }])).document.version).toBe(1);
  });

  it('Free must put the logo in every new scene', () => {
    const { doc } = project();
    expect(rejected(apply(doc, [{ op: 'addScene', sceneId: randomUUID(), name: 'Bare' }])).code).toBe('logo-required');
  });

  it('Premium may hide or remove the logo, and replace it with its own image', () => {
    const { doc, sceneId, watermarkLayerId } = project();
    expect(ok(apply(doc, [{ op: 'removeLayer', sceneId, layerId: watermarkLayerId }], premium)).document.scenes[0]?.layers).toHaveLength(0);
    expect(ok(apply(doc, [{ op: 'addScene', sceneId: randomUUID(), name: 'Bare' }], premium)).document.scenes).toHaveLength(2);
    const logo = { id: randomUUID(), kind: 'image' as const, settings: { url: 'https://cdn.example.com/logo.png', purpose: 'logo' as const } };
    expect(place(doc, sceneId, logo, premium).doc.sources).toHaveLength(2);
    expect(rejected(apply(doc, [{ op: 'addSource', source: logo }]))).toMatchObject({ code: 'custom-logo-not-in-plan', error: 'PLAN_LIMIT_REACHED' });
    const background = { id: randomUUID(), kind: 'image' as const, settings: { url: 'https://cdn.example.com/bg.png', purpose: 'background' as const } };
    expect(rejected(apply(doc, [{ op: 'addSource', source: background }]))).toMatchObject({
      code: 'custom-background-not-in-plan',
      message: 'Upgrade to upload your own backgrounds.',
    });
  });

  it('resolution follows the 720p30fps and 1080p30fps entitlements', () => {
    const { doc } = project();
    expect(ok(apply(doc, [{ op: 'setResolution', resolution: '480p' }])).document.resolution).toBe('480p');
    expect(rejected(apply(doc, [{ op: 'setResolution', resolution: '1080p' }]))).toMatchObject({
      code: 'resolution-not-in-plan',
      error: 'PLAN_LIMIT_REACHED',
      message: 'Stream at 1080p: upgrade your plan to use this resolution.',
    });
    expect(ok(apply(doc, [{ op: 'setResolution', resolution: '1080p' }], premium)).document.resolution).toBe('1080p');
    expect(rejected(apply(doc, [{ op: 'setResolution', resolution: '720p' }], {})).code).toBe('resolution-not-in-plan');
  });
});

describe('applyAcceptedPatch', () => {
  it('replays the published ops to the same document, in version order only', () => {
    const { doc, sceneId } = project();
    const cam = place(doc, sceneId, { id: randomUUID(), kind: 'webcam', settings: { volume: 7 } });
    const replayed = applyAcceptedPatch(doc, { projectId: doc.projectId, version: 1, ops: cam.ops });
    expect(replayed).toEqual({ ok: true, document: cam.doc });
    expect(applyAcceptedPatch(doc, { projectId: doc.projectId, version: 2, ops: cam.ops })).toEqual({ ok: false, reason: 'gap' });
    expect(applyAcceptedPatch(cam.doc, { projectId: doc.projectId, version: 1, ops: cam.ops })).toEqual({ ok: false, reason: 'already-applied' });
  });
});

describe('scenePatchSchema at the edge', () => {
  const sceneId = randomUUID();
  it('refuses an unknown source kind', () => {
    const parsed = scenePatchSchema.safeParse({ baseVersion: 0, ops: [{ op: 'addSource', source: { id: randomUUID(), kind: 'hologram' } }] });
    expect(parsed.success).toBe(false);
  });
  it('refuses a negative size', () => {
    const parsed = scenePatchSchema.safeParse({ baseVersion: 0, ops: [{ op: 'updateLayer', sceneId, layerId: randomUUID(), changes: { width: -10 } }] });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['ops', 0, 'changes', 'width']);
  });
  it('refuses an empty patch and unknown fields', () => {
    expect(scenePatchSchema.safeParse({ baseVersion: 0, ops: [] }).success).toBe(false);
    expect(scenePatchSchema.safeParse({ baseVersion: 0, ops: [{ op: 'renameScene', sceneId, name: 'x', extra: 1 }] }).success).toBe(false);
  });
});

describe('applyScenePatch: document caps', () => {
  const limits = { scenes: 4, sources: 3, layersPerScene: 2 };
  const vip = planEntitlements.VIP;

  it('refuses growth over a cap, names the rule, and lets an over-cap document shrink', () => {
    const { doc } = project();
    const sourcesFree = limits.sources - doc.sources.length;
    const mics = Array.from({ length: sourcesFree + 1 }, () => ({
      op: 'addSource' as const,
      source: { id: randomUUID(), kind: 'microphone' as const, name: 'Mic', settings: {} },
    }));
    const over = rejected(applyScenePatch(doc, { baseVersion: doc.version, ops: mics }, vip, { limits }));
    expect(over).toMatchObject({
      code: 'document-source-limit',
      error: 'SCENE_RULE_VIOLATED',
      message: 'A project can have up to 3 sources. Remove sources you no longer use before adding more.',
    });
    // Lowered after the fact: the document may still lose sources.
    const lowered = { ...limits, sources: 0 };
    const removal = doc.sources[0] ? [{ op: 'removeSource' as const, sourceId: doc.sources[0].id }] : [];
    if (removal.length > 0) expect(applyScenePatch(doc, { baseVersion: doc.version, ops: removal }, vip, { limits: lowered }).ok).toBe(true);
  });

  it('keeps the newest deleted scenes only, the same way when a worker replays the patch', () => {
    let { doc } = project();
    const deletedIds: string[] = [];
    for (let i = 0; i < 25; i++) {
      const id = randomUUID();
      const at = new Date(Date.UTC(2026, 10, 24, 8, 0, i)).toISOString();
      const added = ok(applyScenePatch(doc, { baseVersion: doc.version, ops: [{ op: 'addScene', sceneId: id, name: `S${i}` }] }, vip));
      const removedResult = ok(
        applyScenePatch(added.document, { baseVersion: added.document.version, ops: [{ op: 'removeScene', sceneId: id, deletedAt: at }] }, vip),
      );
      // A worker replays what the server accepted, and must end where the server did.
      const replayed = applyAcceptedPatch(added.document, { projectId: doc.projectId, version: removedResult.document.version, ops: removedResult.ops });
      expect(replayed.ok && replayed.document).toEqual(removedResult.document);
      doc = removedResult.document;
      deletedIds.push(id);
    }
    const kept = doc.scenes.filter((s) => s.deletedAt !== null).map((s) => s.id);
    expect(kept).toHaveLength(KEPT_DELETED_SCENES);
    expect(new Set(kept)).toEqual(new Set(deletedIds.slice(-KEPT_DELETED_SCENES)));
  });
});
