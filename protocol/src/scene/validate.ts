import { sceneDocumentSchema, type SceneDocument } from './document.ts';
import { BROWSER_SOURCE_MIN_SIZE } from './layout.ts';
import { isPrivateUrl, sourceKindInfo } from './sources.ts';

export interface DocumentProblem {
  path: string;
  message: string;
}

export type SceneDocumentValidation = { ok: true; document: SceneDocument } | { ok: false; problems: DocumentProblem[] };

/**
 * Checks a whole document: its shape, then the rules that span objects (ids unique, layers point
 * at sources, an active live scene, one game source per scene, browser source size). Used on
 * documents read from storage and by tests; patches keep these true op by op.
 */
export function validateSceneDocument(input: unknown, options: { pageUrlTrusted?: (url: string) => boolean } = {}): SceneDocumentValidation {
  const parsed = sceneDocumentSchema.safeParse(input);
  if (!parsed.success) {
    return { ok: false, problems: parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })) };
  }
  const doc = parsed.data;
  const problems: DocumentProblem[] = [];
  const seen = new Set<string>();
  const unique = (id: string, path: string) => {
    if (seen.has(id)) problems.push({ path, message: `id ${id} is used more than once` });
    seen.add(id);
  };
  const sources = new Map(doc.sources.map((s) => [s.id, s]));
  doc.sources.forEach((s, i) => {
    unique(s.id, `sources.${i}.id`);
    if (s.kind === 'webpage' && s.settings.config.url !== '' && isPrivateUrl(s.settings.config.url) && !options.pageUrlTrusted?.(s.settings.config.url)) {
      problems.push({ path: `sources.${i}.settings.config.url`, message: 'Browser sources cannot load private or local addresses.' });
    }
  });

  const live = doc.scenes.filter((s) => s.deletedAt === null);
  if (live.length === 0) problems.push({ path: 'scenes', message: 'A project needs at least one scene.' });
  if (doc.activeSceneId === null ? live.length > 0 : !live.some((s) => s.id === doc.activeSceneId)) {
    problems.push({ path: 'activeSceneId', message: 'The active scene must be one of the live scenes.' });
  }
  if (new Set(doc.scenes.map((s) => s.order)).size !== doc.scenes.length) problems.push({ path: 'scenes', message: 'Scene orders must be unique.' });

  doc.scenes.forEach((scene, si) => {
    unique(scene.id, `scenes.${si}.id`);
    const inScene = new Set<string>();
    const zIndexes = new Set<number>();
    let games = 0;
    scene.layers.forEach((layer, li) => {
      const path = `scenes.${si}.layers.${li}`;
      unique(layer.id, `${path}.id`);
      if (zIndexes.has(layer.zIndex)) problems.push({ path: `${path}.zIndex`, message: 'Layers of a scene need distinct z-orders.' });
      zIndexes.add(layer.zIndex);
      const source = sources.get(layer.sourceId);
      if (!source) {
        problems.push({ path: `${path}.sourceId`, message: 'The layer points at a source that does not exist.' });
        return;
      }
      if (inScene.has(source.id)) problems.push({ path: `${path}.sourceId`, message: 'This source is already in the scene.' });
      inScene.add(source.id);
      if (source.kind === 'game') games += 1;
      if (source.kind === 'webpage' && (layer.width < BROWSER_SOURCE_MIN_SIZE.width || layer.height < BROWSER_SOURCE_MIN_SIZE.height)) {
        problems.push({ path, message: 'A browser source must be at least 852 wide and 480 high.' });
      }
      if (sourceKindInfo[source.kind].hasVideo && (layer.width < 1 || layer.height < 1)) {
        problems.push({ path, message: 'A visible source must be at least 1 pixel wide and high.' });
      }
      if (sourceKindInfo[source.kind].hasVideo && layer.vertical && (layer.vertical.width < 1 || layer.vertical.height < 1)) {
        problems.push({ path: `${path}.vertical`, message: 'A visible source must be at least 1 pixel wide and high on the vertical canvas too.' });
      }
    });
    if (games > 1) problems.push({ path: `scenes.${si}.layers`, message: 'You can only add one game source to each scene' });
  });
  return problems.length === 0 ? { ok: true, document: doc } : { ok: false, problems };
}
