import { sceneRejection, type SceneDocument, type SceneRejection } from '@onair/protocol';
import type { Db } from '@onair/db';

type Tx = Pick<Db, 'upload'>;

/**
 * The uploads a scene document names must be this project's, and an image source must show an
 * image, a video source a video. Checked before a patch is saved, in the patch's transaction, so a
 * worker never meets an upload id it cannot play. Answers the first refusal, or null.
 */
export async function checkSceneUploads(tx: Tx, projectId: string, doc: SceneDocument): Promise<SceneRejection | null> {
  const wanted: [uploadId: string, kind: 'image' | 'video'][] = [];
  for (const source of doc.sources) {
    if (source.kind !== 'image' && source.kind !== 'video') continue;
    const uploadId = source.settings.uploadId;
    if (uploadId) wanted.push([uploadId, source.kind]);
  }
  if (wanted.length === 0) return null;
  const rows = await tx.upload.findMany({ where: { projectId, id: { in: [...new Set(wanted.map(([id]) => id))] } }, select: { id: true, kind: true } });
  const kinds = new Map(rows.map((r) => [r.id, r.kind]));
  for (const [uploadId, kind] of wanted) {
    const found = kinds.get(uploadId);
    if (found === undefined) return sceneRejection('upload-not-found', { details: { uploadId } });
    if (found !== kind) return sceneRejection('upload-wrong-kind', { details: { uploadId, expected: kind, actual: found } });
  }
  return null;
}
