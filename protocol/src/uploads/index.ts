import { z } from 'zod';
import { isEnabled, type EntitlementKey, type Entitlements } from '../plans.ts';
import { defineEndpoint } from '../http/endpoint.ts';

/**
 * Media a creator uploads (spec §3 custom-backgrounds, custom-logo,
 * custom-starting-ending-and-be-back-screens). An upload belongs to a project and counts against
 * the quota of the project's owner, whose plan decides what may be uploaded.
 */

/** What an upload is for decides the entitlement it needs and which kinds of file it may be. */
export const uploadPurposes = ['logo', 'background', 'video', 'screen', 'alert-sound'] as const;
export const uploadPurposeSchema = z.enum(uploadPurposes);
export type UploadPurpose = z.infer<typeof uploadPurposeSchema>;

/**
 * Uploads of a partner channel (no project): pictures of the creator site and of overlays. They
 * count against the channel owner's storage; the channel's permission groups decide who may upload.
 */
export const channelUploadPurposes = ['site', 'overlay'] as const;
export type ChannelUploadPurpose = (typeof channelUploadPurposes)[number];

export const uploadKinds = ['image', 'video', 'audio'] as const;
export type UploadKind = (typeof uploadKinds)[number];

/** The file types accepted, as detected from the content (never from the name). */
export const uploadMimeTypes = {
  'image/png': 'image',
  'image/jpeg': 'image',
  'image/webp': 'image',
  'image/gif': 'image',
  'video/mp4': 'video',
  'video/webm': 'video',
  'audio/mpeg': 'audio',
  'audio/ogg': 'audio',
  'audio/wav': 'audio',
} as const satisfies Record<string, UploadKind>;
export type UploadMimeType = keyof typeof uploadMimeTypes;
export const uploadMimeTypeSchema = z.enum(Object.keys(uploadMimeTypes) as [UploadMimeType, ...UploadMimeType[]]);

/** The longest sound an alert plays: an alert lasts at most 15 s, so would a longer sound be cut. */
export const ALERT_SOUND_MAX_SECONDS = 15;

/**
 * Per purpose: the entitlement it needs (null: every plan, as the alerts themselves), the kinds of
 * file, the refusal words, and for a sound the longest it may last.
 */
export const uploadPurposeRules: Record<
  UploadPurpose,
  { entitlement: EntitlementKey | null; kinds: readonly UploadKind[]; refusal: string; maxSeconds?: number }
> = {
  logo: { entitlement: 'custom-logo', kinds: ['image'], refusal: 'Your plan shows the OnAir logo. Upgrade to upload your own logo.' },
  background: { entitlement: 'custom-backgrounds', kinds: ['image', 'video'], refusal: 'Upgrade to upload your own backgrounds.' },
  video: { entitlement: 'custom-backgrounds', kinds: ['video'], refusal: 'Upgrade to upload your own videos.' },
  screen: {
    entitlement: 'custom-starting-ending-and-be-back-screens',
    kinds: ['image', 'video'],
    refusal: 'Upgrade to use your own Starting Soon, Be Right Back and Ending screens.',
  },
  'alert-sound': { entitlement: null, kinds: ['audio'], refusal: '', maxSeconds: ALERT_SOUND_MAX_SECONDS },
};

/** Whether the plan lets a creator upload for this purpose. */
export function canUploadFor(entitlements: Entitlements, purpose: UploadPurpose): boolean {
  const { entitlement } = uploadPurposeRules[purpose];
  return entitlement === null || isEnabled(entitlements, entitlement);
}

export const uploadSchema = z.object({
  id: z.uuid(),
  /** Null for an upload of a partner channel (creator site, overlays). */
  projectId: z.uuid().nullable(),
  purpose: z.enum([...uploadPurposes, ...channelUploadPurposes]),
  kind: z.enum(uploadKinds),
  mimeType: uploadMimeTypeSchema,
  /** The name the file had on the creator's machine, for display only. */
  name: z.string().max(200),
  sizeBytes: z.number().int().min(0),
  /** Pixels of a picture or a video; 0 for a sound. */
  width: z.number().int().min(0),
  height: z.number().int().min(0),
  /** Seconds, for a video or a sound. */
  durationSeconds: z.number().min(0).nullable(),
  hasAudio: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type Upload = z.infer<typeof uploadSchema>;

export const uploadUsageSchema = z.object({ usedBytes: z.number().int().min(0), quotaBytes: z.number().int().min(0) });
export type UploadUsage = z.infer<typeof uploadUsageSchema>;

const projectParams = z.object({ projectId: z.uuid() });
const uploadParams = z.object({ projectId: z.uuid(), uploadId: z.uuid() });

export const createUploadQuerySchema = z.object({
  purpose: uploadPurposeSchema,
  name: z.string().trim().min(1).max(200),
});

/**
 * The file is the raw request body (any Content-Type; the type is detected from the bytes), with
 * a Content-Length: the size limit and the quota are checked before a byte is read.
 */
export const createUploadEndpoint = defineEndpoint({
  id: 'createUpload',
  projectPermission: 'update project',
  method: 'post',
  path: '/api/v1/projects/:projectId/uploads',
  summary: 'Upload an image (PNG, JPEG, WebP, GIF), a video (MP4 H.264+AAC, WebM) or an alert sound (MP3, Ogg, WAV) as the raw request body.',
  tag: 'uploads',
  access: 'user',
  params: projectParams,
  query: createUploadQuerySchema,
  response: uploadSchema,
  successStatus: 201,
});

export const listUploadsEndpoint = defineEndpoint({
  id: 'listUploads',
  projectPermission: 'read project',
  method: 'get',
  path: '/api/v1/projects/:projectId/uploads',
  summary: "The project's uploads, newest first, and the owner's storage use.",
  tag: 'uploads',
  access: 'user',
  params: projectParams,
  response: z.object({ uploads: z.array(uploadSchema), usage: uploadUsageSchema }),
});

export const deleteUploadEndpoint = defineEndpoint({
  id: 'deleteUpload',
  projectPermission: 'update project',
  method: 'delete',
  path: '/api/v1/projects/:projectId/uploads/:uploadId',
  summary: 'Delete an upload no source of the project uses.',
  tag: 'uploads',
  access: 'user',
  params: uploadParams,
  response: z.undefined(),
  successStatus: 204,
});

export const uploadEndpoints = [createUploadEndpoint, listUploadsEndpoint, deleteUploadEndpoint] as const;

/** Where the bytes of an upload are read (not a JSON endpoint: the file itself). */
export function uploadContentPath(projectId: string, uploadId: string): string {
  return `/api/v1/projects/${projectId}/uploads/${uploadId}/content`;
}
