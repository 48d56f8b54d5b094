import { uploadEndpoints } from '@onair/protocol';
import type { SessionResolver } from '../http/auth-context.ts';
import type { Platform } from '../module.ts';
import { createUploadStore, uploadLimits } from './config.ts';
import { uploadRoutes } from './routes.ts';
import { UploadService } from './upload-service.ts';
import type { UploadStore } from './upload-store.ts';

export interface UploadsServices {
  /** Where uploads are kept: the disk at UPLOADS_DIR, or the S3 bucket. */
  uploadStore: UploadStore;
  uploads: UploadService;
}

/** Uploaded media (images, videos, audio) of projects and of the partner areas. */
export const uploadsModule = {
  name: 'uploads',
  build: (deps: Platform): UploadsServices => {
    const uploadStore = createUploadStore(deps.config);
    return { uploadStore, uploads: new UploadService(deps.db, uploadStore, uploadLimits(deps.config), deps.logger) };
  },
  http: {
    /** Before the JSON parser: an upload's body is the file, streamed under its own limits. */
    upload: {
      endpoints: uploadEndpoints,
      mount: (c: Platform & UploadsServices & { resolveSession: SessionResolver }) =>
        uploadRoutes({ db: c.db, uploads: c.uploads, resolveSession: c.resolveSession }),
    },
  },
};
