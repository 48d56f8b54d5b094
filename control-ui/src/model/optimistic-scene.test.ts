import { describe, expect, it } from 'vitest';
import { newProjectDocument, type SceneOp } from '@onair/protocol';
import { optimisticDocument, tryEdit } from './optimistic-scene.ts';

const ids = {
  projectId: '8f5b3c2e-1a4d-4b6e-9c7f-0a1b2c3d4e5f',
  sceneId: '1b2c3d4e-5f60-4718-8a9b-0c1d2e3f4a5b',
  watermarkSourceId: '2c3d4e5f-6071-4829-9bac-1d2e3f4a5b6c',
  watermarkLayerId: '3d4e5f60-7182-493a-acbd-2e3f4a5b6c7d',
};
const confirmed = newProjectDocument({ ...ids, resolution: '720p' });
const rename = (name: string): SceneOp[] => [{ op: 'renameScene', sceneId: ids.sceneId, name }];

describe('optimisticDocument', () => {
  it('replays unconfirmed edits in order over the confirmed document, keeping its version', () => {
    const { document, failed } = optimisticDocument(confirmed, [
      { id: 'a', ops: rename('First'), attempts: 0 },
      { id: 'b', ops: rename('Second'), attempts: 0 },
    ]);
    expect(document.scenes[0]?.name).toBe('Second');
    expect(document.version).toBe(0);
    expect(failed).toEqual([]);
  });

  it('reports an edit that no longer applies and still applies the rest', () => {
    const { document, failed } = optimisticDocument(confirmed, [
      { id: 'gone', ops: [{ op: 'renameScene', sceneId: '4e5f6071-8293-4a4b-bdce-3f4a5b6c7d8e', name: 'x' }], attempts: 0 },
      { id: 'ok', ops: rename('Kept'), attempts: 0 },
    ]);
    expect(failed.map((f) => [f.edit.id, f.rejection.code])).toEqual([['gone', 'scene-not-found']]);
    expect(document.scenes[0]?.name).toBe('Kept');
  });
});

describe('tryEdit', () => {
  it("refuses a second game source locally with the spec's words", () => {
    const game = (sourceId: string, layerId: string): SceneOp[] => [
      { op: 'addSource', source: { id: sourceId, kind: 'game' } },
      { op: 'addLayer', sceneId: ids.sceneId, layer: { id: layerId, sourceId } },
    ];
    const first = tryEdit(confirmed, game('5f607182-93a4-4b5c-8edf-4a5b6c7d8e9f', '60718293-a4b5-4c6d-9ef0-5b6c7d8e9fa0'));
    if (!first.ok) throw new Error('first game source refused');
    const second = tryEdit(first.document, game('718293a4-b5c6-4d7e-8f01-6c7d8e9fa0b1', '8293a4b5-c6d7-4e8f-9012-7d8e9fa0b1c2'));
    expect(second).toMatchObject({ ok: false, rejection: { message: 'You can only add one game source to each scene' } });
  });
});
