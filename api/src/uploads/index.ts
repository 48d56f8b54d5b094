export { uploadsConfigShape, uploadLimits, type UploadLimits } from './config.ts';
export { DiskUploadStore, type UploadStore } from './upload-store.ts';
export { UploadService, storageKeyOf, formatBytes } from './upload-service.ts';
export { uploadRoutes } from './routes.ts';
export { checkSceneUploads } from './scene-uploads.ts';
