import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';

/** Settings › Data Exports: an archive of everything the account holds, built in the background. */
export const dataExportStates = ['queued', 'running', 'ready', 'failed'] as const;
export const dataExportStateSchema = z.enum(dataExportStates);

/** The job payload of the data-exports queue (queues.ts). */
export const dataExportJobSchema = z.object({ exportId: z.uuid(), userId: z.string().min(1) });
export type DataExportJob = z.infer<typeof dataExportJobSchema>;

export const dataExportSchema = z.object({
  id: z.string(),
  state: dataExportStateSchema,
  /** 0–100 while building. */
  progress: z.number().int().min(0).max(100),
  createdAt: z.string(),
  /** When a ready archive can no longer be downloaded (ISO). */
  expiresAt: z.string().nullable(),
  /** True once expiresAt has passed. */
  expired: z.boolean(),
  sizeBytes: z.number().int().nonnegative().nullable(),
  /** Relative download address while ready and not expired. */
  downloadUrl: z.string().nullable(),
});
export type DataExport = z.infer<typeof dataExportSchema>;

export const listDataExportsEndpoint = defineEndpoint({
  id: 'listDataExports',
  method: 'get',
  path: '/api/v1/partner/exports',
  summary: "The account's data exports, newest first.",
  tag: 'partner',
  access: 'user',
  response: z.object({ exports: z.array(dataExportSchema), linkHours: z.number().int().positive() }),
});

export const requestDataExportEndpoint = defineEndpoint({
  id: 'requestDataExport',
  method: 'post',
  path: '/api/v1/partner/exports',
  summary: 'Start building an archive (JSON and CSV) of all the account data; one at a time.',
  tag: 'partner',
  access: 'user',
  response: dataExportSchema,
  successStatus: 202,
});

export const downloadDataExportEndpoint = defineEndpoint({
  id: 'downloadDataExport',
  method: 'get',
  path: '/api/v1/partner/exports/:exportId/download',
  summary: 'The archive (application/zip) of a ready export, by its owner, until the link expires.',
  tag: 'partner',
  access: 'user',
  params: z.object({ exportId: z.uuid() }),
  response: z.string().describe('application/zip'),
});
