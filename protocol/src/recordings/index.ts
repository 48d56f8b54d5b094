import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';

/**
 * Recordings (issue 19): a broadcast started with `record` is written by its media worker as
 * fragmented MP4 parts (`part-1.mp4`, then `part-2.mp4` after a failover or a crash of the
 * pipeline) from the outputs' own encode. One recording per broadcast; each part downloads as a file.
 */

export const recordingStates = ['recording', 'ready'] as const;
export type RecordingState = (typeof recordingStates)[number];

export const recordingPartSchema = z.object({
  /** 1, 2, …: a part per pipeline process that recorded (a failover starts the next). */
  number: z.number().int().min(1),
  sizeBytes: z.number().int().min(0),
  /** Seconds of media in the part, as ffprobe reads it; null while it is being written. */
  durationSeconds: z.number().min(0).nullable(),
});
export type RecordingPart = z.infer<typeof recordingPartSchema>;

export const recordingSchema = z.object({
  id: z.uuid(),
  projectId: z.uuid(),
  broadcastId: z.uuid(),
  state: z.enum(recordingStates),
  startedAt: z.iso.datetime(),
  endedAt: z.iso.datetime().nullable(),
  /** Sum of the parts; null while recording. */
  durationSeconds: z.number().min(0).nullable(),
  sizeBytes: z.number().int().min(0),
  parts: z.array(recordingPartSchema),
  /** When the retention job deletes it (the plan's recording-retention-days after it ended). */
  expiresAt: z.iso.datetime().nullable(),
});
export type Recording = z.infer<typeof recordingSchema>;

const projectParams = z.object({ projectId: z.uuid() });
const recordingParams = z.object({ projectId: z.uuid(), recordingId: z.uuid() });

export const listRecordingsEndpoint = defineEndpoint({
  id: 'listRecordings',
  projectPermission: 'manage broadcast',
  method: 'get',
  path: '/api/v1/projects/:projectId/recordings',
  summary: "The project's recordings, newest first, with duration, size and their parts.",
  tag: 'recordings',
  access: 'user',
  params: projectParams,
  response: z.object({ recordings: z.array(recordingSchema) }),
});

export const deleteRecordingEndpoint = defineEndpoint({
  id: 'deleteRecording',
  projectPermission: 'manage broadcast',
  method: 'delete',
  path: '/api/v1/projects/:projectId/recordings/:recordingId',
  summary: 'Delete a recording that is not being written.',
  tag: 'recordings',
  access: 'user',
  params: recordingParams,
  response: z.undefined(),
  successStatus: 204,
});

export const recordingEndpoints = [listRecordingsEndpoint, deleteRecordingEndpoint] as const;

/** Where a part of a recording downloads (not a JSON endpoint: the MP4 itself, as an attachment). */
export function recordingPartPath(projectId: string, recordingId: string, part: number): string {
  return `/api/v1/projects/${projectId}/recordings/${recordingId}/parts/${part}`;
}

export const PADDING_MAX_SECONDS = 30;
/**
 * Go Live's optional body: `record` asks for a recording of this broadcast (refused without the
 * plan's `recording`). Padding, off by default (platforms drop the first and last seconds of a
 * stream): `preRollSeconds` the outputs run before the broadcast counts as live (the studio says
 * Starting… until then), `postRollSeconds` they keep running after End Broadcast.
 */
export const goLiveBodySchema = z
  .object({
    record: z.boolean().optional(),
    preRollSeconds: z.number().int().min(0).max(PADDING_MAX_SECONDS).optional(),
    postRollSeconds: z.number().int().min(0).max(PADDING_MAX_SECONDS).optional(),
  })
  .strict();
export type GoLiveBody = z.infer<typeof goLiveBodySchema>;

export const RECORDING_NOT_IN_PLAN = 'Your plan does not include recording. Upgrade to record your broadcasts.';
