/**
 * Issue 51 item 4, "An arriving feed is always seen" (media-worker/README.md): a feed arriving at a
 * new project of every template, nobody in the studio, is in the program; a camera nobody
 * publishes does not cover it; the scene the feed lands in re-flows as people come.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PlanInput, PlanPlacement, RenderPlan } from '../pipeline/render-plan.ts';
import { planEntitlements, type PlanId } from '../plans.ts';
import type { SceneDocument } from '../scene/document.ts';
import { applyScenePatchFollowingLayouts, feedArrivedOps, followLayoutOps } from '../scene/follow-layout.ts';
import type { SceneOp } from '../scene/patch.ts';
import { newProjectFromTemplate, sceneTemplateIds, type SceneTemplateId } from '../scene/scene-templates.ts';
import type { Source } from '../scene/sources.ts';
import { sceneToRenderPlan } from './scene-to-plan.ts';

const OWNER = 'owner-1';

function newProject(templateId: SceneTemplateId, plan: PlanId = 'Free'): SceneDocument {
  return newProjectFromTemplate({ projectId: randomUUID(), resolution: '720p', ownerId: OWNER, templateId, newId: randomUUID }, planEntitlements[plan]);
}

function apply(doc: SceneDocument, ops: SceneOp[], plan: PlanId = 'Free'): SceneDocument {
  const result = applyScenePatchFollowingLayouts(doc, { baseVersion: doc.version, ops }, planEntitlements[plan]);
  if (!result.ok) throw new Error(`${result.rejection.code}: ${result.rejection.message}`);
  return result.document;
}

/**
 * Inputs as the worker makes them: live sources are RTP (pages keyed green, so see-through where
 * the page is), images are images; a page without an address is left out (nothing renders it).
 */
function resolve(source: Source): PlanInput | undefined {
  const rtp = (keyed: boolean): PlanInput => ({
    id: source.id,
    kind: 'rtp',
    video: {
      codecs: [{ encoding: 'H264', port: 40_000, payloadType: 102 }],
      placeholder: '/placeholder.png',
      ...(keyed ? { keyColor: 'green' as const } : {}),
    },
  });
  switch (source.kind) {
    case 'watermark':
    case 'image':
      return { id: source.id, kind: 'image', path: '/picture.png' };
    case 'webpage':
      return source.settings.config.url === '' ? undefined : rtp(true);
    case 'video':
      return undefined;
    default:
      return rtp(false);
  }
}

const gameOf = (doc: SceneDocument) => doc.sources.find((s) => s.kind === 'game')!.id;
const area = (b: { width: number; height: number }) => b.width * b.height;
function intersection(a: PlanPlacement, b: PlanPlacement): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/** The game's placement in the program's active scene, and the drawn, opaque placements above it. */
function gameAndCover(doc: SceneDocument, plan: RenderPlan): { game: PlanPlacement; cover: PlanPlacement[] } {
  const gameId = doc.sources.find((s) => s.kind === 'game')!.id;
  const scene = plan.scenes.find((s) => s.id === plan.activeSceneId)!;
  const game = scene.placements.find((p) => p.inputId === gameId)!;
  const inputs = new Map(plan.inputs.map((i) => [i.id, i]));
  const seeThrough = (p: PlanPlacement) => {
    const input = inputs.get(p.inputId);
    return input?.kind === 'rtp' && input.video?.keyColor !== undefined;
  };
  const cover = scene.placements.filter(
    (p) => p.zorder > game.zorder && p.visible && p.alpha > 0 && !plan.absentInputs.includes(p.inputId) && !seeThrough(p) && intersection(p, game) > 0,
  );
  return { game, cover };
}

describe('an arriving feed is always seen', () => {
  for (const templateId of sceneTemplateIds) {
    it(`${templateId}: a feed arriving with nobody in the studio is in the program, nothing opaque over more than a corner of it`, () => {
      const before = newProject(templateId);
      const doc = apply(before, feedArrivedOps(before, randomUUID));
      // The feed is there, nobody else.
      const plan = sceneToRenderPlan(doc, resolve, [], { present: new Set([gameOf(doc)]) });
      const { game, cover } = gameAndCover(doc, plan);
      expect(game, 'the game is placed in the active scene').toBeDefined();
      expect(game).toMatchObject({ visible: true, alpha: 1 });
      // The game the feed brought is full frame; a gameplay template's own game stays where it put it (Screen + cameras: 960×540).
      if (!before.sources.some((s) => s.kind === 'game')) expect(game).toMatchObject({ x: 0, y: 0, width: 1280, height: 720 });
      else expect(area(game)).toBeGreaterThanOrEqual((1280 * 720) / 2);
      for (const p of cover) expect(area(p), `${p.inputId} covers only a corner`).toBeLessThanOrEqual(area(game) / 4);
      expect(cover.reduce((sum, p) => sum + intersection(p, game), 0)).toBeLessThanOrEqual(area(game) / 4);
      // The people of the template are not there: none of them draws its 'Camera Offline' card.
      const people = doc.sources.filter((s) => s.kind === 'webcam' || s.kind === 'participant').map((s) => s.id);
      expect(people.length).toBeGreaterThan(0);
      expect([...plan.absentInputs].sort()).toEqual([...people, ...doc.sources.filter((s) => s.kind === 'screenshare').map((s) => s.id)].sort());
    });

    it(`${templateId}: the host opens the studio: their camera is in a corner or beside the game, which stays in view`, () => {
      const before = newProject(templateId, 'Premium');
      const doc = apply(before, feedArrivedOps(before, randomUUID), 'Premium');
      const host = doc.sources.find((s) => s.kind === 'webcam')!;
      const plan = sceneToRenderPlan(doc, resolve, [], { present: new Set([host.id, gameOf(doc)]) });
      expect(plan.absentInputs).not.toContain(host.id);
      const { game, cover } = gameAndCover(doc, plan);
      expect(game.visible).toBe(true);
      expect(area(game)).toBeGreaterThanOrEqual((1280 * 720) / 2);
      for (const p of cover) expect(area(p), `${p.inputId} covers only a corner`).toBeLessThanOrEqual(area(game) / 4);
    });
  }

  it('Beam (the default): the game full frame, the host camera in the lower right corner, and the scene follows picture in picture', () => {
    const before = newProject('Beam');
    const ops = feedArrivedOps(before, randomUUID);
    const doc = apply(before, ops);
    const scene = doc.scenes[0]!;
    const game = doc.sources.find((s) => s.kind === 'game')!;
    expect(game.name).toBe('Game Source');
    const gameLayer = scene.layers.find((l) => l.sourceId === game.id)!;
    const cameraLayer = scene.layers.find((l) => l.sourceId === doc.sources.find((s) => s.kind === 'webcam')!.id)!;
    expect(gameLayer).toMatchObject({ x: 0, y: 0, width: 1280, height: 720, visible: true });
    expect(cameraLayer).toMatchObject({ x: 936, y: 516, width: 320, height: 180, visible: true });
    expect(cameraLayer.zIndex).toBeGreaterThan(gameLayer.zIndex);
    expect(scene.followedLayout).toEqual({ layout: 'picture-in-picture', mainLayerId: gameLayer.id });
    // A second feed (a restart of the encoder) changes nothing: the game source is there.
    expect(feedArrivedOps(doc, randomUUID)).toEqual([]);
  });

  it('a guest added later re-flows the scene around the game: Screen + cameras, the game still the main tile', () => {
    const before = newProject('Beam');
    const doc = apply(before, feedArrivedOps(before, randomUUID));
    const sceneId = doc.scenes[0]!.id;
    const guestId = randomUUID();
    const guestLayer = randomUUID();
    const after = apply(doc, [
      { op: 'addSource', source: { id: guestId, kind: 'participant', name: 'Guest 1' } },
      { op: 'addLayer', sceneId, layer: { id: guestLayer, sourceId: guestId } },
    ]);
    const scene = after.scenes[0]!;
    const gameLayer = scene.layers.find((l) => l.sourceId === after.sources.find((s) => s.kind === 'game')!.id)!;
    expect(scene.followedLayout).toEqual({ layout: 'screen-strip', mainLayerId: gameLayer.id });
    expect(gameLayer).toMatchObject({ x: 0, width: 960, visible: true });
    expect(scene.layers.find((l) => l.id === guestLayer)).toMatchObject({ x: 960, width: 320, visible: true });
  });

  it('the feed goes (the console is switched off): the host alone, full frame; it comes back: the game full frame again, the host in the corner', () => {
    const before = newProject('Beam');
    const doc = apply(before, feedArrivedOps(before, randomUUID));
    const host = doc.sources.find((s) => s.kind === 'webcam')!.id;
    const placement = (present: string[], sourceId: string) => {
      const plan = sceneToRenderPlan(doc, resolve, [], { present: new Set(present) });
      return plan.scenes.find((s) => s.id === plan.activeSceneId)!.placements.find((p) => p.inputId === sourceId)!;
    };
    expect(placement([host], host)).toMatchObject({ x: 0, y: 0, width: 1280, height: 720, visible: true });
    expect(placement([host], gameOf(doc)).visible).toBe(false);
    expect(placement([host, gameOf(doc)], host)).toMatchObject({ x: 936, y: 516, width: 320, height: 180, visible: true });
    expect(placement([host, gameOf(doc)], gameOf(doc))).toMatchObject({ x: 0, y: 0, width: 1280, height: 720, visible: true });
    // Drawn over the game, not under it.
    expect(placement([host, gameOf(doc)], host).zorder).toBeGreaterThan(placement([host, gameOf(doc)], gameOf(doc)).zorder);
  });

  it('the feed drops with nobody in the studio: the scene stays as arranged, the game where it was, so the holding slate covers it', () => {
    const before = newProject('Beam');
    const doc = apply(before, feedArrivedOps(before, randomUUID));
    const plan = sceneToRenderPlan(doc, resolve, [], { present: new Set() });
    const placements = plan.scenes.find((s) => s.id === plan.activeSceneId)!.placements;
    expect(placements.find((p) => p.inputId === gameOf(doc))).toMatchObject({ x: 0, y: 0, width: 1280, height: 720, visible: true });
    // The camera's person is still not there: no card for them.
    expect(plan.absentInputs).toEqual([doc.sources.find((s) => s.kind === 'webcam')!.id]);
  });

  it('a scene arranged by hand keeps its game card while no feed is there (where the feed will show)', () => {
    const doc = newProject('Gameplay');
    const plan = sceneToRenderPlan(doc, resolve, [], { present: new Set() });
    expect(plan.scenes.find((s) => s.id === plan.activeSceneId)!.placements.find((p) => p.inputId === gameOf(doc))).toMatchObject({ visible: true });
    expect(plan.absentInputs).not.toContain(gameOf(doc));
  });

  it('Just chatting opens on Starting soon: the feed goes to the first ordinary scene, which becomes the active one', () => {
    const before = newProject('Just chatting');
    expect(before.scenes.find((s) => s.id === before.activeSceneId)?.kind).toBe('starting');
    const doc = apply(before, feedArrivedOps(before, randomUUID));
    const active = doc.scenes.find((s) => s.id === doc.activeSceneId)!;
    expect(active).toMatchObject({ name: 'Just chatting', kind: 'standard' });
    expect(active.layers.some((l) => doc.sources.find((s) => s.id === l.sourceId)?.kind === 'game')).toBe(true);
  });
});

describe('a scene following its layout, as the program plays it', () => {
  it('re-flows without the people who are not in the session, and back when they come, the document unchanged', () => {
    const before = newProject('Interview', 'Premium');
    const sceneId = before.activeSceneId!;
    const doc = apply(before, followLayoutOps(before, sceneId, 'grid'), 'Premium');
    const host = doc.sources.find((s) => s.kind === 'webcam')!;
    const inScene = new Set(doc.scenes.find((s) => s.id === sceneId)!.layers.map((l) => l.sourceId));
    const guests = doc.sources.filter((s) => s.kind === 'participant' && inScene.has(s.id));
    expect(guests).toHaveLength(2);
    const placementOf = (plan: RenderPlan, sourceId: string) => plan.scenes.find((s) => s.id === sceneId)!.placements.find((p) => p.inputId === sourceId)!;
    // Only the host: the whole frame is theirs, no empty cells for the guests.
    const alone = sceneToRenderPlan(doc, resolve, [], { present: new Set([host.id]) });
    expect(placementOf(alone, host.id)).toMatchObject({ x: 0, y: 0, width: 1280, height: 720, visible: true });
    for (const g of guests) expect(placementOf(alone, g.id).visible).toBe(false);
    // The first guest joins: side by side in the grid's cells.
    const two = sceneToRenderPlan(doc, resolve, [], { present: new Set([host.id, guests[0]!.id]) });
    expect(placementOf(two, host.id)).toMatchObject({ x: 0, width: 640, visible: true });
    expect(placementOf(two, guests[0]!.id)).toMatchObject({ x: 640, width: 640, visible: true });
    // Everyone: the document's own arrangement.
    const all = sceneToRenderPlan(doc, resolve, []);
    const layers = doc.scenes.find((s) => s.id === sceneId)!.layers;
    for (const g of [host, ...guests]) {
      const layer = layers.find((l) => l.sourceId === g.id)!;
      expect(placementOf(all, g.id)).toMatchObject({ x: layer.x, y: layer.y, width: layer.width, height: layer.height });
    }
  });
});

describe('who is in the session (RenderPlan.absentInputs)', () => {
  it('lists the person-fed inputs whose person is not present, never a game, page or image; nothing when presence is not known', () => {
    const before = newProject('Gameplay: duo');
    const host = before.sources.find((s) => s.kind === 'webcam')!;
    const guest = before.sources.find((s) => s.kind === 'participant')!;
    const game = before.sources.find((s) => s.kind === 'game')!;
    expect(sceneToRenderPlan(before, resolve, []).absentInputs).toEqual([]);
    expect(sceneToRenderPlan(before, resolve, [], { present: new Set([host.id]) }).absentInputs).toEqual([guest.id]);
    expect(sceneToRenderPlan(before, resolve, [], { present: new Set() }).absentInputs.sort()).toEqual([host.id, guest.id].sort());
    expect(sceneToRenderPlan(before, resolve, [], { present: new Set() }).absentInputs).not.toContain(game.id);
  });
});
