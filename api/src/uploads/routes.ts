import { Router } from 'express';
import { createUploadEndpoint, deleteUploadEndpoint, isUuid, listUploadsEndpoint, OnAirError } from '@onair/protocol';
import type { Db } from '@onair/db';
import { projectAccessOf } from '../access/project-access.ts';
import { authenticate, getCurrentUser, type SessionResolver } from '../http/auth-context.ts';
import { queryTextRule } from '../http/body.ts';
import { mount, Reply } from '../http/mount.ts';
import { loadSceneDocument } from '../scenes/scene-store.ts';
import type { UploadService } from './upload-service.ts';
import { sendStoredFile } from '../http/send-file.ts';

/**
 * Uploads. Mounted before the api's JSON body parser: the file is the raw request body, read by
 * the upload service as a stream under the size limit and the quota (nothing else reads it).
 */
export function uploadRoutes(deps: { db: Db; uploads: UploadService; resolveSession: SessionResolver }): Router {
  const router = Router();
  router.use('/api/v1/projects/:projectId/uploads', authenticate(deps.db, deps.resolveSession), queryTextRule());

  mount(router, createUploadEndpoint, async ({ params, query }, { req }) => {
    const length = req.headers['content-length'];
    const upload = await deps.uploads.create(getCurrentUser(req), params.projectId, {
      body: req,
      declaredBytes: length === undefined ? undefined : Number(length),
      purpose: query.purpose,
      name: query.name,
    });
    return new Reply(201, upload);
  });
  mount(router, listUploadsEndpoint, async ({ params }, { req }) => deps.uploads.list(getCurrentUser(req), params.projectId));
  mount(router, deleteUploadEndpoint, async ({ params }) => {
    await deps.uploads.remove(params.projectId, params.uploadId, await loadSceneDocument(deps.db, params.projectId));
    return new Reply(204, undefined);
  });

  // The file itself (thumbnails in the studio, downloads): not a JSON endpoint, same access rule as listing.
  router.get('/api/v1/projects/:projectId/uploads/:uploadId/content', async (req, res) => {
    const { projectId, uploadId } = req.params;
    if (!isUuid(projectId) || !isUuid(uploadId)) throw new OnAirError('NOT_FOUND', 'This file does not exist.');
    await projectAccessOf(res).require(getCurrentUser(req), projectId, 'read project');
    const { upload, stream, sizeBytes } = await deps.uploads.open(projectId, uploadId);
    await sendStoredFile(
      res,
      { stream, sizeBytes },
      { 'content-type': upload.kind === 'image' ? 'image/png' : upload.mimeType, 'cache-control': 'private, max-age=3600' },
    );
  });
  return router;
}
