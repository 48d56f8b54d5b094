import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SceneDocument } from './document.ts';
import { newProjectDocument } from './new-document.ts';
import { sourceDefaults } from './sources.ts';
import { validateSceneDocument } from './validate.ts';

function doc(): SceneDocument {
  return newProjectDocument({
    projectId: randomUUID(),
    sceneId: randomUUID(),
    watermarkSourceId: randomUUID(),
    watermarkLayerId: randomUUID(),
    resolution: '720p',
  });
}

function withSource(d: SceneDocument, kind: 'game' | 'webpage', size = { width: 640, height: 360 }) {
  const id = randomUUID();
  const settings = kind === 'game' ? sourceDefaults.game : sourceDefaults.webpage;
  d.sources.push({ id, kind, name: kind, settings } as SceneDocument['sources'][number]);
  const scene = d.scenes[0]!;
  scene.layers.push({
    id: randomUUID(),
    sourceId: id,
    x: 0,
    y: 0,
    ...size,
    crop: { top: 0, right: 0, bottom: 0, left: 0 },
    zIndex: scene.layers.length,
    opacity: 1,
    visible: true,
  });
  return d;
}

describe('validateSceneDocument', () => {
  it('accepts the document of a new project', () => {
    expect(validateSceneDocument(doc())).toMatchObject({ ok: true });
  });

  it('refuses an unknown source kind and a negative size', () => {
    const d = doc() as unknown as { sources: { kind: string }[]; scenes: { layers: { width: number }[] }[] };
    d.sources[0]!.kind = 'hologram';
    expect(validateSceneDocument(d).ok).toBe(false);
    const e = doc();
    e.scenes[0]!.layers[0]!.width = -1;
    const result = validateSceneDocument(e);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems[0]?.path).toBe('scenes.0.layers.0.width');
  });

  it('refuses two game sources in a scene', () => {
    const result = validateSceneDocument(withSource(withSource(doc(), 'game'), 'game'));
    expect(result).toMatchObject({ ok: false, problems: [{ message: 'You can only add one game source to each scene' }] });
  });

  it('refuses a browser source smaller than 852x480', () => {
    expect(validateSceneDocument(withSource(doc(), 'webpage', { width: 852, height: 480 })).ok).toBe(true);
    expect(validateSceneDocument(withSource(doc(), 'webpage', { width: 851, height: 480 })).ok).toBe(false);
  });

  it('refuses a layer without its source, duplicated ids, and an active scene that was deleted', () => {
    const a = doc();
    a.scenes[0]!.layers[0]!.sourceId = randomUUID();
    expect(validateSceneDocument(a)).toMatchObject({ ok: false, problems: [{ message: 'The layer points at a source that does not exist.' }] });
    const b = doc();
    b.sources[0]!.id = b.scenes[0]!.id;
    b.scenes[0]!.layers[0]!.sourceId = b.scenes[0]!.id;
    expect(validateSceneDocument(b).ok).toBe(false);
    const c = doc();
    c.scenes[0]!.deletedAt = new Date().toISOString();
    const problems = validateSceneDocument(c);
    expect(!problems.ok && problems.problems.map((p) => p.path)).toEqual(['scenes', 'activeSceneId']);
  });
});
