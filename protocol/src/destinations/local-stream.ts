import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';

/**
 * A project's own stream on the built-in Local destination (the operator's or the one-machine
 * stack's RTMP server). Each Local destination has its own unguessable stream name, sealed at rest
 * like any stream key and rotatable; only that project's pipeline may publish to it, and whoever
 * knows the name can watch it there. The studio shows it (with a copy button) and plays it in the
 * browser through the api (HLS from the RTMP server), behind the project's own access check.
 */
export const localStreamSchema = z.object({
  destinationId: z.uuid(),
  /** The full address to watch the stream with a player (ffplay, VLC), stream name included. */
  playUrl: z.string(),
  /** The HLS playlist the studio's Watch player plays, on the api (null when the server serves no HLS). */
  hlsUrl: z.string().nullable(),
  /** The Watch player's delay behind the program, in seconds (HLS fragments and playlist). */
  watchDelaySeconds: z.number().nullable(),
});
export type LocalStream = z.infer<typeof localStreamSchema>;

const localStreamParams = z.object({ projectId: z.uuid(), destinationId: z.uuid() });
const localStreamPath = '/api/v1/projects/:projectId/destinations/:destinationId/local-stream';

export const getLocalStreamEndpoint = defineEndpoint({
  id: 'getLocalStream',
  projectPermission: 'manage broadcast',
  method: 'get',
  path: localStreamPath,
  summary:
    "Where a Local destination's stream can be watched (its address with the stream name, and the studio's HLS player). 404 for a destination that is not Local.",
  tag: 'destinations',
  access: 'user',
  params: localStreamParams,
  response: localStreamSchema,
});

export const rotateLocalStreamEndpoint = defineEndpoint({
  id: 'rotateLocalStream',
  projectPermission: 'manage broadcast',
  method: 'post',
  path: localStreamPath,
  summary: 'Give a Local destination a new stream name; the old one stops working (a live stream moves to the new name at its next connection).',
  tag: 'destinations',
  access: 'user',
  params: localStreamParams,
  response: localStreamSchema,
});

/** The HLS files of a Local destination's Watch player (`index.m3u8` and its segments), proxied from the RTMP server. */
export const LOCAL_STREAM_WATCH_PATH = '/api/v1/projects/:projectId/destinations/:destinationId/watch/:file';
export const localStreamWatchUrl = (projectId: string, destinationId: string, file = 'index.m3u8') =>
  `/api/v1/projects/${projectId}/destinations/${destinationId}/watch/${file}`;

export const localStreamEndpoints = [getLocalStreamEndpoint, rotateLocalStreamEndpoint] as const;
