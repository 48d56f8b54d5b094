import { z } from 'zod';
import { canHideOrReplaceLogo, type Entitlements } from '../plans.ts';
import { applyScenePatch } from './apply-patch.ts';
import { DEFAULT_SCENE_NAME } from './new-document.ts';
import type { SceneDocument, SceneKind } from './document.ts';
import { CANVAS, WATERMARK_PLACEMENT, type LayerBox } from './layout.ts';
import type { SceneOp } from './patch.ts';
import type { SceneLayoutId } from './scene-layout-ids.ts';
import { arrangeTiles, type LayoutTile } from './scene-layouts.ts';
import type { BuiltInScreen, NewSource, Source } from './sources.ts';

/**
 * Scene templates (spec: sceneTemplate, "list templates", "copy templates"; issue 38): a set of
 * scenes with their layers and source slots, as data. A project starts from one (Beam unless the
 * creator picks another) and any template can be copied into a project later: its scenes are
 * added, its slots filled with the project's own sources where it has them (the host's camera, a
 * screen share, the game, the built-in screens) and new ones otherwise.
 */
export const sceneTemplateIds = [
  'Beam',
  'Just chatting',
  'Interview',
  'Podcast',
  'Gameplay',
  'Gameplay: camera left',
  'Gameplay: big camera',
  'Gameplay: side camera',
  'Gameplay: duo',
] as const;
export const sceneTemplateIdSchema = z.enum(sceneTemplateIds);
export type SceneTemplateId = z.infer<typeof sceneTemplateIdSchema>;
/** Spec: sceneTemplate.selectedTemplate defaults to 'Beam'. */
export const DEFAULT_SCENE_TEMPLATE: SceneTemplateId = 'Beam';

/**
 * What fills a layer of a template: the host's camera, the n-th guest, a screen share, the game,
 * a built-in screen, or an overlay page (alerts, chat) whose address the creator picks later.
 */
export type TemplateSlot =
  | { kind: 'camera' }
  | { kind: 'guest'; index: number }
  | { kind: 'screen' }
  | { kind: 'game' }
  | { kind: 'built-in-screen'; screen: BuiltInScreen }
  | { kind: 'overlay'; overlay: 'alerts' | 'chat' };

export interface TemplateScene {
  name: string;
  kind: SceneKind;
  /**
   * The scene's cameras, guests, screens and game, bottom to top, arranged by `layout` (the same
   * one-click layouts the studio offers); `corner` overrides the picture-in-picture camera's box.
   * The vertical canvas is left to its derived layout (deriveVerticalLayout), which follows the
   * horizontal one until the creator edits it or applies a layout.
   */
  tiles: TemplateSlot[];
  layout: SceneLayoutId;
  corner?: LayerBox;
  /** Full-frame layers drawn over the tiles, bottom to top: built-in screens and overlay pages. */
  over?: TemplateSlot[];
  /** Where the logo goes when the plan shows it: clear of every face (spec §9's 30,30 unless that is on one). */
  logo?: LayerBox;
}

export interface SceneTemplate {
  id: SceneTemplateId;
  description: string;
  category: 'talk' | 'gameplay';
  scenes: TemplateScene[];
}

const FULL: LayerBox = { x: 0, y: 0, width: CANVAS.width, height: CANVAS.height };
const camera: TemplateSlot = { kind: 'camera' };
const game: TemplateSlot = { kind: 'game' };
const guest = (index: number): TemplateSlot => ({ kind: 'guest', index });
const alerts: TemplateSlot = { kind: 'overlay', overlay: 'alerts' };
const chat: TemplateSlot = { kind: 'overlay', overlay: 'chat' };
const screenScene = (screen: BuiltInScreen, name: string): TemplateScene => ({
  name,
  kind: screen,
  tiles: [],
  layout: 'solo',
  over: [{ kind: 'built-in-screen', screen }],
});
/** The logo in the lower left corner, at its default size: clear of grid and strip tiles' faces. */
const LOGO_LOWER_LEFT: LayerBox = { ...WATERMARK_PLACEMENT, y: CANVAS.height - WATERMARK_PLACEMENT.y - WATERMARK_PLACEMENT.height };
/** The game's camera boxes of the gameplay templates (horizontal canvas). */
const CORNER_RIGHT: LayerBox = { x: 936, y: 516, width: 320, height: 180 };
const CORNER_LEFT: LayerBox = { x: 24, y: 516, width: 320, height: 180 };
const CORNER_BIG: LayerBox = { x: 776, y: 426, width: 480, height: 270 };

export const sceneTemplates: readonly SceneTemplate[] = [
  {
    id: 'Beam',
    description: 'Your camera, full frame.',
    category: 'talk',
    scenes: [{ name: DEFAULT_SCENE_NAME, kind: 'standard', tiles: [camera], layout: 'solo' }],
  },
  {
    id: 'Just chatting',
    description: 'Starting soon, your camera with chat and alerts, and an ending screen.',
    category: 'talk',
    scenes: [
      screenScene('starting', 'Starting soon'),
      { name: 'Just chatting', kind: 'standard', tiles: [camera], layout: 'solo', over: [chat, alerts] },
      screenScene('ending', 'Ending'),
    ],
  },
  {
    id: 'Interview',
    description: 'You and two guests, and a panel of up to four guests.',
    category: 'talk',
    scenes: [
      { name: 'Interview', kind: 'standard', tiles: [camera, guest(1), guest(2)], layout: 'grid', logo: LOGO_LOWER_LEFT },
      { name: 'Panel', kind: 'standard', tiles: [camera, guest(1), guest(2), guest(3), guest(4)], layout: 'grid', logo: LOGO_LOWER_LEFT },
    ],
  },
  {
    id: 'Podcast',
    description: 'You and a guest side by side, and you alone.',
    category: 'talk',
    scenes: [
      { name: 'Podcast', kind: 'standard', tiles: [camera, guest(1)], layout: 'side-by-side' },
      { name: 'Host', kind: 'standard', tiles: [camera], layout: 'solo' },
    ],
  },
  {
    id: 'Gameplay',
    description: 'The game full frame, your camera in the lower right corner, chat and alerts.',
    category: 'gameplay',
    scenes: [
      { name: 'Gameplay', kind: 'standard', tiles: [game, camera], layout: 'picture-in-picture', corner: CORNER_RIGHT, over: [chat, alerts] },
      screenScene('brb', 'Be right back'),
    ],
  },
  {
    id: 'Gameplay: camera left',
    description: 'The game full frame, your camera in the lower left corner, chat and alerts.',
    category: 'gameplay',
    scenes: [
      { name: 'Gameplay', kind: 'standard', tiles: [game, camera], layout: 'picture-in-picture', corner: CORNER_LEFT, over: [chat, alerts] },
      screenScene('brb', 'Be right back'),
    ],
  },
  {
    id: 'Gameplay: big camera',
    description: 'The game full frame with a large camera, chat and alerts.',
    category: 'gameplay',
    scenes: [
      { name: 'Gameplay', kind: 'standard', tiles: [game, camera], layout: 'picture-in-picture', corner: CORNER_BIG, over: [chat, alerts] },
      screenScene('brb', 'Be right back'),
    ],
  },
  {
    id: 'Gameplay: side camera',
    description: 'The game large, your camera beside it, chat and alerts.',
    category: 'gameplay',
    scenes: [
      { name: 'Gameplay', kind: 'standard', tiles: [game, camera], layout: 'screen-strip', over: [chat, alerts], logo: LOGO_LOWER_LEFT },
      screenScene('brb', 'Be right back'),
    ],
  },
  {
    id: 'Gameplay: duo',
    description: 'The game large with you and a co-player beside it, chat and alerts.',
    category: 'gameplay',
    scenes: [
      { name: 'Gameplay', kind: 'standard', tiles: [game, camera, guest(1)], layout: 'screen-strip', over: [chat, alerts], logo: LOGO_LOWER_LEFT },
      screenScene('brb', 'Be right back'),
    ],
  },
];

export function sceneTemplate(id: SceneTemplateId): SceneTemplate {
  return sceneTemplates.find((t) => t.id === id)!;
}

/** A template as the list endpoint gives it: what the picker shows. */
export const sceneTemplateSummarySchema = z.object({
  id: sceneTemplateIdSchema,
  description: z.string(),
  category: z.enum(['talk', 'gameplay']),
  sceneNames: z.array(z.string()),
});
export type SceneTemplateSummary = z.infer<typeof sceneTemplateSummarySchema>;

export function sceneTemplateSummaries(): SceneTemplateSummary[] {
  return sceneTemplates.map((t) => ({ id: t.id, description: t.description, category: t.category, sceneNames: t.scenes.map((s) => s.name) }));
}

const OVERLAY_NAMES = { alerts: 'Alerts', chat: 'Chat overlay' } as const;
const SCREEN_NAMES: Record<BuiltInScreen, string> = { starting: 'Starting soon', brb: 'Be right back', ending: 'Ending' };

/**
 * The ops that copy a template's scenes into `doc` (spec "copy templates"), in one patch: scenes
 * added after the project's own, the first of them made active only when the project had none.
 * Sources are the project's where it has them: its first camera (the host's), its first screen
 * share and game, its guests in order, its built-in screens and overlay slots of the same name;
 * the others are added. Where the plan shows the logo, every scene gets it, placed clear of faces.
 */
export function sceneTemplateOps(
  doc: SceneDocument,
  templateId: SceneTemplateId,
  options: { newId: () => string; entitlements: Entitlements; userId: string | null },
): SceneOp[] {
  const template = sceneTemplate(templateId);
  const ops: SceneOp[] = [];
  const sources = new Map<string, string>();
  const existing = (predicate: (s: Source) => boolean) => doc.sources.find(predicate)?.id;
  const guests = doc.sources.filter((s) => s.kind === 'participant');

  const sourceFor = (slot: TemplateSlot | { kind: 'logo' }): string => {
    const key = JSON.stringify(slot);
    const known = sources.get(key);
    if (known) return known;
    let id: string | undefined;
    let source: NewSource | undefined;
    const fresh = options.newId;
    switch (slot.kind) {
      case 'camera':
        id = existing((s) => s.kind === 'webcam');
        source = { id: '', kind: 'webcam', settings: { webcamDeviceId: 'default', microphoneDeviceId: 'default', userId: options.userId } };
        break;
      case 'guest':
        id = guests[slot.index - 1]?.id;
        source = { id: '', kind: 'participant', name: `Guest ${slot.index}` };
        break;
      case 'screen':
        id = existing((s) => s.kind === 'screenshare');
        source = { id: '', kind: 'screenshare', settings: { userId: options.userId } };
        break;
      case 'game':
        id = existing((s) => s.kind === 'game');
        source = { id: '', kind: 'game' };
        break;
      case 'built-in-screen':
        id = existing((s) => s.kind === 'image' && s.settings.purpose === 'screen' && s.settings.screen === slot.screen);
        source = { id: '', kind: 'image', name: SCREEN_NAMES[slot.screen], settings: { url: '', purpose: 'screen', screen: slot.screen } };
        break;
      case 'overlay':
        id = existing((s) => s.kind === 'webpage' && s.name === OVERLAY_NAMES[slot.overlay]);
        source = {
          id: '',
          kind: 'webpage',
          name: OVERLAY_NAMES[slot.overlay],
          settings: { config: { title: OVERLAY_NAMES[slot.overlay], mode: 'keep-loaded' } },
        };
        break;
      case 'logo':
        id = existing((s) => s.kind === 'watermark');
        source = { id: '', kind: 'watermark' };
        break;
    }
    if (!id) {
      id = fresh();
      ops.push({ op: 'addSource', source: { ...source, id } as NewSource });
    }
    sources.set(key, id);
    return id;
  };

  const withLogo = !canHideOrReplaceLogo(options.entitlements);
  let activate = doc.activeSceneId === null;
  for (const scene of template.scenes) {
    const sceneId = options.newId();
    ops.push({ op: 'addScene', sceneId, name: scene.name, kind: scene.kind });
    const layerOps: SceneOp[] = [];
    const tiles: (LayoutTile & { slot: TemplateSlot })[] = scene.tiles.map((slot) => ({
      slot,
      layerId: options.newId(),
      kind: slot.kind === 'camera' || slot.kind === 'guest' ? 'person' : 'content',
    }));
    const mainFirst = tiles.find((t) => t.kind === 'content') ?? tiles[0];
    const arrangement = arrangeTiles(scene.layout, tiles, mainFirst ? { focusLayerId: mainFirst.layerId } : {});
    // Bottom to top: the main tile, the other tiles, the pages over them, the logo.
    for (const [i, placed] of arrangement.placed.entries()) {
      const tile = tiles.find((t) => t.layerId === placed.layerId)!;
      const box = i > 0 && scene.layout === 'picture-in-picture' && scene.corner ? scene.corner : placed.horizontal;
      layerOps.push({ op: 'addLayer', sceneId, layer: { id: tile.layerId, sourceId: sourceFor(tile.slot), ...box } });
    }
    for (const slot of scene.over ?? []) layerOps.push({ op: 'addLayer', sceneId, layer: { id: options.newId(), sourceId: sourceFor(slot), ...FULL } });
    if (withLogo)
      layerOps.push({ op: 'addLayer', sceneId, layer: { id: options.newId(), sourceId: sourceFor({ kind: 'logo' }), ...(scene.logo ?? WATERMARK_PLACEMENT) } });
    ops.push(...layerOps);
    if (activate) {
      ops.push({ op: 'setActiveScene', sceneId });
      activate = false;
    }
  }
  // A source must exist before the layers that use it: move every addSource to the front.
  return [...ops.filter((op) => op.op === 'addSource'), ...ops.filter((op) => op.op !== 'addSource')];
}

/**
 * The document of a new project made from a template: the template's scenes, the first active,
 * the owner's camera in them, the logo where the plan shows it. Version 0, as every new project.
 * Built by applying the template's copy to an empty document, so it passes exactly the rules a
 * patch does (logo kept on Free, one game source per scene, the plan's scene limit).
 */
export function newProjectFromTemplate(
  input: { projectId: string; resolution: SceneDocument['resolution']; ownerId: string; templateId: SceneTemplateId; newId: () => string },
  entitlements: Entitlements,
): SceneDocument {
  const empty: SceneDocument = { projectId: input.projectId, version: 0, resolution: input.resolution, activeSceneId: null, scenes: [], sources: [] };
  const ops = sceneTemplateOps(empty, input.templateId, { newId: input.newId, entitlements, userId: input.ownerId });
  const result = applyScenePatch(empty, { baseVersion: 0, ops }, entitlements);
  // Templates are checked against every plan by their tests: a refusal here is a fault of the template.
  if (!result.ok) throw new Error(`template ${input.templateId} is refused: ${result.rejection.code}`);
  return { ...result.document, version: 0 };
}
