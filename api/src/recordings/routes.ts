import { Router } from 'express';
import { deleteRecordingEndpoint, isUuid, listRecordingsEndpoint, OnAirError } from '@onair/protocol';
import type { Db } from '@onair/db';
import { projectAccessOf } from '../access/project-access.ts';
import { authenticate, getCurrentUser, type SessionResolver } from '../http/auth-context.ts';
import { mount, Reply } from '../http/mount.ts';
import type { RecordingService } from './recording-service.ts';
import { sendStoredFile } from '../http/send-file.ts';

const PART = /^[1-9][0-9]{0,3}$/;

/** Recordings of a project: listed, downloaded and deleted by those who manage its broadcasts. */
export function recordingRoutes(deps: { db: Db; recordings: RecordingService; resolveSession: SessionResolver }): Router {
  const router = Router();
  router.use('/api/v1/projects/:projectId/recordings', authenticate(deps.db, deps.resolveSession));
  mount(router, listRecordingsEndpoint, async ({ params }) => ({ recordings: await deps.recordings.list(params.projectId) }));
  mount(router, deleteRecordingEndpoint, async ({ params }) => {
    await deps.recordings.remove(params.projectId, params.recordingId);
    return new Reply(204, undefined);
  });

  // A part's MP4 as an attachment: not a JSON endpoint, the same access rule as the list.
  router.get('/api/v1/projects/:projectId/recordings/:recordingId/parts/:part', async (req, res) => {
    const { projectId, recordingId, part } = req.params;
    if (!isUuid(projectId) || !isUuid(recordingId) || !PART.test(part))
      throw new OnAirError('NOT_FOUND', 'This recording does not exist (it may have expired).');
    await projectAccessOf(res).require(getCurrentUser(req), projectId, 'manage broadcast');
    const file = await deps.recordings.open(projectId, recordingId, Number(part));
    await sendStoredFile(res, file, {
      'content-type': 'video/mp4',
      'content-disposition': `attachment; filename="${file.name}"`,
      'cache-control': 'private, no-store',
    });
  });
  return router;
}
