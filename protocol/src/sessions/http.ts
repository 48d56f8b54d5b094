import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { sessionStateSchema } from './session.ts';

export const sessionStatusSchema = z.object({
  projectId: z.uuid(),
  /** `stopped` when the project has no session (never opened, or ended). */
  state: sessionStateSchema,
  workerId: z.string().nullable(),
  /** While waiting: since when the session waits for a worker with room for it. */
  waitingSinceMs: z.number().int().nonnegative().nullable(),
  appliedVersion: z.number().int().nonnegative().nullable(),
  pickups: z.number().int().nonnegative(),
});
export type SessionStatus = z.infer<typeof sessionStatusSchema>;

const params = z.object({ projectId: z.uuid() });

export const openSessionEndpoint = defineEndpoint({
  id: 'openSession',
  // Opening the studio means joining its room; it also takes a place on a media worker.
  projectPermission: 'join room',
  method: 'post',
  path: '/api/v1/projects/:projectId/session',
  summary: 'Open the studio session of a project: it is queued and placed on a media worker with room for it.',
  tag: 'sessions',
  access: 'user',
  params,
  response: sessionStatusSchema,
  successStatus: 202,
});

export const getSessionEndpoint = defineEndpoint({
  id: 'getSession',
  projectPermission: 'read project',
  method: 'get',
  path: '/api/v1/projects/:projectId/session',
  summary: 'Where the studio session of a project stands: waiting for a worker, starting, running (and on which worker), or stopped.',
  tag: 'sessions',
  access: 'user',
  params,
  response: sessionStatusSchema,
});

export const closeSessionEndpoint = defineEndpoint({
  id: 'closeSession',
  projectPermission: 'manage broadcast',
  method: 'delete',
  path: '/api/v1/projects/:projectId/session',
  summary: 'End the studio session of a project (its pipeline stops, nothing is streamed any more).',
  tag: 'sessions',
  access: 'user',
  params,
  response: sessionStatusSchema,
});
