import { Router } from 'express';
import { downloadDataExportEndpoint, listDataExportsEndpoint, requestDataExportEndpoint } from '@onair/protocol';
import { getCurrentUser } from '../../http/auth-context.ts';
import { FileReply, mount, Reply } from '../../http/mount.ts';
import type { DataExportService } from './export-service.ts';

export function dataExportRoutes(exports: DataExportService): Router {
  const router = Router();
  mount(router, listDataExportsEndpoint, async (_input, { req }) => ({ exports: await exports.list(getCurrentUser(req).id), linkHours: exports.linkHours }));
  mount(router, requestDataExportEndpoint, async (_input, { req }) => new Reply(202, await exports.request(getCurrentUser(req).id)));
  mount(router, downloadDataExportEndpoint, async ({ params }, { req }) => {
    const file = await exports.download(getCurrentUser(req).id, params.exportId);
    return new FileReply(file.filename, 'application/zip', file.body);
  });
  return router;
}
