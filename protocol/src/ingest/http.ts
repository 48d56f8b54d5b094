import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { ingestFeedSchema, ingestStatusSchema } from './ingest.ts';

const projectParams = z.object({ projectId: z.uuid() });

/**
 * A project's ingest as its studio shows it. The key is a secret of the project: only those who may
 * manage its broadcast read it (it is sealed at rest and never logged).
 */
export const ingestViewSchema = z.object({
  /** `rtmp://<host>/ingest`: the server address an encoder is given. */
  serverUrl: z.string(),
  /** The stream key (regenerable; the old one stops working at once). */
  streamKey: z.string(),
  /** `rtmp://<host>/app`: where a console's Twitch ingest is led; its key is the Twitch stream key. */
  consoleServerUrl: z.string(),
  autoLive: z.boolean(),
  /** Auto Live needs an enabled Twitch destination (spec §5 'Twitch required'). */
  twitchEnabled: z.boolean(),
  graceSeconds: z.number().int().positive(),
  status: ingestStatusSchema,
  /** What the pulling worker last saw of the feed; null when no feed is pulled. */
  feed: ingestFeedSchema.nullable(),
  /** Links of the console guides (configuration). */
  guideLinks: z.object({ tutorialUrl: z.string(), helpCenterUrl: z.string() }),
});
export type IngestView = z.infer<typeof ingestViewSchema>;

export const getIngestEndpoint = defineEndpoint({
  id: 'getIngest',
  projectPermission: 'manage broadcast',
  method: 'get',
  path: '/api/v1/projects/:projectId/ingest',
  summary: "The project's ingest address and key for encoders and consoles, Auto Live, and the feed's status.",
  tag: 'ingest',
  access: 'user',
  params: projectParams,
  response: ingestViewSchema,
});

export const regenerateIngestKeyEndpoint = defineEndpoint({
  id: 'regenerateIngestKey',
  projectPermission: 'manage broadcast',
  method: 'post',
  path: '/api/v1/projects/:projectId/ingest/key',
  summary: 'Replace the ingest key: the old key is refused from now on, and a feed using it is cut off.',
  tag: 'ingest',
  access: 'user',
  params: projectParams,
  response: ingestViewSchema,
});

export const setAutoLiveBodySchema = z.strictObject({ enabled: z.boolean() });

export const setAutoLiveEndpoint = defineEndpoint({
  id: 'setAutoLive',
  projectPermission: 'manage broadcast',
  method: 'put',
  path: '/api/v1/projects/:projectId/auto-live',
  summary: 'Turn Auto Live on or off: while on, a feed arriving at the ingest starts the broadcast and its lasting absence ends it.',
  tag: 'ingest',
  access: 'user',
  params: projectParams,
  body: setAutoLiveBodySchema,
  response: ingestViewSchema,
});

export const ingestEndpoints = [getIngestEndpoint, regenerateIngestKeyEndpoint, setAutoLiveEndpoint] as const;

/** `/ws`: the ingest's state changed (a feed arrived, dropped, Auto Live was switched). */
export const ingestStatusMessageSchema = z.strictObject({
  type: z.literal('ingest.status'),
  projectId: z.uuid(),
  autoLive: z.boolean(),
  status: ingestStatusSchema,
});

/** `/ws`: what the pulling worker sees of the feed (about once a second while pulled). */
export const ingestFeedMessageSchema = z.strictObject({
  type: z.literal('ingest.feed'),
  projectId: z.uuid(),
  feed: ingestFeedSchema.nullable(),
});
