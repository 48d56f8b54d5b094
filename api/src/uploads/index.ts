export { createUploadStore, uploadsConfigShape, uploadLimits, type UploadLimits } from './config.ts';
export { S3UploadStore } from './s3-upload-store.ts';
export { DiskUploadStore, type UploadStore } from './upload-store.ts';
export { UploadService, storageKeyOf, formatBytes } from './upload-service.ts';
export { uploadRoutes } from './routes.ts';
