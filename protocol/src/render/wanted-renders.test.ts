import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NO_CROP, type Layer, type SceneDocument } from '../scene/document.ts';
import { newProjectDocument } from '../scene/new-document.ts';
import type { Source } from '../scene/sources.ts';
import { wantedRenders } from './wanted-renders.ts';

function page(url: string, mode: 'keep-loaded' | 'scene-loaded'): Source {
  return { id: randomUUID(), kind: 'webpage', name: 'Alerts', settings: { opacity: 1, config: { url, title: '', canPreviewUrl: false, mode } } };
}

function layer(sourceId: string, width = 852, height = 480, visible = true): Layer {
  return { id: randomUUID(), sourceId, x: 0, y: 0, width, height, crop: { ...NO_CROP }, zIndex: 1, opacity: 1, visible };
}

function twoScenes(): { doc: SceneDocument; first: string; second: string } {
  const first = randomUUID();
  const doc = newProjectDocument({
    projectId: randomUUID(),
    sceneId: first,
    watermarkSourceId: randomUUID(),
    watermarkLayerId: randomUUID(),
    resolution: '720p',
  });
  const second = randomUUID();
  doc.scenes.push({ id: second, name: 'Scene 2', order: 1, kind: 'standard', deletedAt: null, layers: [] });
  return { doc, first, second };
}

describe('wantedRenders', () => {
  it('loads a page only while its scene is active, unless it is keep-loaded', () => {
    const { doc, first, second } = twoScenes();
    const onScene = page('https://example.com/a', 'scene-loaded');
    const kept = page('https://example.com/b', 'keep-loaded');
    doc.sources.push(onScene, kept);
    doc.scenes[1]?.layers.push(layer(onScene.id), layer(kept.id));
    expect(doc.activeSceneId).toBe(first);
    expect(wantedRenders(doc).map((w) => w.sourceId)).toEqual([kept.id]);
    doc.activeSceneId = second;
    expect(
      wantedRenders(doc)
        .map((w) => w.sourceId)
        .sort(),
    ).toEqual([onScene.id, kept.id].sort());
  });

  it('skips pages without an address, hidden layers and deleted scenes', () => {
    const { doc, first, second } = twoScenes();
    const empty = page('', 'keep-loaded');
    const hidden = page('https://example.com/h', 'scene-loaded');
    const inDeleted = page('https://example.com/d', 'keep-loaded');
    doc.sources.push(empty, hidden, inDeleted);
    doc.scenes[0]?.layers.push(layer(empty.id), layer(hidden.id, 852, 480, false));
    doc.scenes[1]?.layers.push(layer(inDeleted.id));
    const deleted = doc.scenes.find((s) => s.id === second);
    if (deleted) deleted.deletedAt = new Date().toISOString();
    expect(doc.activeSceneId).toBe(first);
    expect(wantedRenders(doc)).toEqual([]);
  });

  it('renders at the largest layer, scaled to the output, even-sized and within limits', () => {
    const { doc } = twoScenes();
    const p = page('https://example.com/big', 'keep-loaded');
    doc.sources.push(p);
    doc.scenes[0]?.layers.push(layer(p.id, 853, 481));
    doc.scenes[1]?.layers.push(layer(p.id, 900, 500));
    expect(wantedRenders(doc)).toEqual([{ sourceId: p.id, page: { url: 'https://example.com/big', width: 900, height: 500, transparent: true } }]);
    expect(wantedRenders(doc, 1080)[0]?.page).toMatchObject({ width: 1350, height: 750 });
    doc.scenes[1]?.layers.push(layer(p.id, 1280, 720));
    expect(wantedRenders(doc, 1080)[0]?.page).toMatchObject({ width: 1920, height: 1080 });
    const small = twoScenes();
    const q = page('https://example.com/odd', 'keep-loaded');
    small.doc.sources.push(q);
    small.doc.scenes[0]?.layers.push(layer(q.id, 853, 481));
    expect(wantedRenders(small.doc)[0]?.page).toMatchObject({ width: 854, height: 482 });
  });
});
