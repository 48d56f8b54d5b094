import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { broadcastViewSchema, platformPreparationSchema } from './broadcast.ts';
import { goLiveBodySchema } from '../recordings/index.ts';
import { destinationTypeSchema } from './catalogue.ts';
import {
  authenticationStatusSchema,
  createDestinationBodySchema,
  destinationViewSchema,
  facebookTargetTypeSchema,
  updateDestinationBodySchema,
} from './schemas.ts';

// The destination calls of spec §7, under /api/v1/projects/{projectId}: the project is in the path
// rather than a query parameter, and tokens never come back to the browser (the platform-token
// call of the spec is not offered; the api uses tokens itself).

const projectParams = z.object({ projectId: z.uuid() });
const destinationParams = z.object({ projectId: z.uuid(), destinationId: z.uuid() });
const base = '/api/v1/projects/:projectId/destinations';

/** The plan limit of the list (spec §5: Add Destination is disabled at it). `maximum` null means Unlimited. */
export const destinationLimitSchema = z.object({ maximum: z.number().int().nullable(), count: z.number().int(), reached: z.boolean() });

export const destinationListSchema = z.object({
  destinations: z.array(destinationViewSchema),
  limit: destinationLimitSchema,
  /** The project's Auto Live: while on, the last enabled Twitch destination stays (spec §5 'Twitch required'). */
  autoLive: z.boolean(),
});
export type DestinationList = z.infer<typeof destinationListSchema>;

/** One tile of the Add Destination picker. */
export const destinationTileSchema = z.object({
  type: destinationTypeSchema,
  providerId: z.string(),
  label: z.string(),
  brandColor: z.string(),
  /** False for kinds the server does not offer (YouTubeManual, Local without a local server). */
  available: z.boolean(),
  /** The plan does not include it; `upgradeTooltip` says what an upgrade unlocks (spec §8). */
  locked: z.boolean(),
  upgradeTooltip: z.string().nullable(),
  /** Offered through the platform's local double (the one-machine stack's test mode): no real account, the stream stays on this machine. */
  testMode: z.boolean(),
});
export type DestinationTile = z.infer<typeof destinationTileSchema>;
export const destinationPickerSchema = z.object({ tiles: z.array(destinationTileSchema), limit: destinationLimitSchema });
export type DestinationPicker = z.infer<typeof destinationPickerSchema>;

export const listDestinationsEndpoint = defineEndpoint({
  id: 'listDestinations',
  projectPermission: 'read project',
  method: 'get',
  path: base,
  summary: "The project's destinations (stream keys masked) and the plan's destination limit.",
  tag: 'destinations',
  access: 'user',
  params: projectParams,
  response: destinationListSchema,
});

export const getDestinationPickerEndpoint = defineEndpoint({
  id: 'getDestinationPicker',
  projectPermission: 'read project',
  method: 'get',
  path: `${base}/picker`,
  summary: 'The Add Destination picker: one tile per kind, locked with an upgrade tooltip when the plan lacks it.',
  tag: 'destinations',
  access: 'user',
  params: projectParams,
  response: destinationPickerSchema,
});

export const createDestinationEndpoint = defineEndpoint({
  id: 'createDestination',
  projectPermission: 'manage broadcast',
  method: 'post',
  path: base,
  summary:
    'Add a destination (spec §7 create). 403 PLAN_LIMIT_REACHED at the maximum-destinations limit or for a paid kind; 422 DESTINATION_ADDRESS_REFUSED for an RTMP URL on a private address. OAuth kinds come back unauthenticated: open /api/v1/destinations/auth/{provider} next.',
  tag: 'destinations',
  access: 'user',
  params: projectParams,
  body: createDestinationBodySchema,
  response: destinationViewSchema,
  successStatus: 201,
});

export const updateDestinationEndpoint = defineEndpoint({
  id: 'updateDestination',
  projectPermission: 'manage broadcast',
  method: 'patch',
  path: `${base}/:destinationId`,
  summary: 'Toggle or edit a destination; the merged result obeys the create rules. 409 STREAM_TARGET_IN_USE for a Facebook target another destination uses.',
  tag: 'destinations',
  access: 'user',
  params: destinationParams,
  body: updateDestinationBodySchema,
  response: destinationViewSchema,
});

export const deleteDestinationEndpoint = defineEndpoint({
  id: 'deleteDestination',
  projectPermission: 'manage broadcast',
  method: 'delete',
  path: `${base}/:destinationId`,
  summary: 'Remove a destination (after the confirmation of spec §2).',
  tag: 'destinations',
  access: 'user',
  params: destinationParams,
  response: z.undefined(),
  successStatus: 204,
});

export const ensureAuthenticationEndpoint = defineEndpoint({
  id: 'ensureAuthentication',
  projectPermission: 'manage broadcast',
  method: 'get',
  path: `${base}/ensure-authentication`,
  summary: 'Refreshes expiring platform tokens and tells which OAuth destinations need the creator to authenticate again.',
  tag: 'destinations',
  access: 'user',
  params: projectParams,
  response: z.object({ statuses: z.array(authenticationStatusSchema) }),
});

export const refreshDestinationTokenEndpoint = defineEndpoint({
  id: 'refreshDestinationToken',
  projectPermission: 'manage broadcast',
  method: 'post',
  path: `${base}/:destinationId/refresh-token`,
  summary: "Refresh the destination's platform token now (the token stays on the server).",
  tag: 'destinations',
  access: 'user',
  params: destinationParams,
  response: authenticationStatusSchema.extend({ tokenExpiresAt: z.iso.datetime().nullable() }),
});

export const streamDestinationOptionSchema = z.object({ id: z.string(), name: z.string(), type: facebookTargetTypeSchema, disabled: z.boolean() });
export type StreamDestinationOption = z.infer<typeof streamDestinationOptionSchema>;

export const listStreamDestinationsEndpoint = defineEndpoint({
  id: 'listStreamDestinations',
  projectPermission: 'manage broadcast',
  method: 'get',
  path: `${base}/:destinationId/stream-destinations`,
  summary: "A Facebook destination's targets (Timeline, Pages, Groups, Events); one another Facebook destination of the project uses is disabled.",
  tag: 'destinations',
  access: 'user',
  params: destinationParams,
  response: z.object({ targets: z.array(streamDestinationOptionSchema) }),
});

export const startPlatformBroadcastsEndpoint = defineEndpoint({
  id: 'startPlatformBroadcasts',
  projectPermission: 'manage broadcast',
  method: 'post',
  path: `${base}/start-broadcast`,
  summary: 'Before going live: create or update the broadcast on every enabled OAuth platform, apply title, description and privacy, and fetch its ingest.',
  tag: 'destinations',
  access: 'user',
  params: projectParams,
  response: z.object({ destinations: z.array(platformPreparationSchema) }),
});

export const getBroadcastEndpoint = defineEndpoint({
  id: 'getBroadcast',
  projectPermission: 'read project',
  method: 'get',
  path: '/api/v1/projects/:projectId/broadcast',
  summary: "The project's latest broadcast, or null when it never went live.",
  tag: 'broadcasts',
  access: 'user',
  params: projectParams,
  response: z.object({ broadcast: broadcastViewSchema.nullable() }),
});

export const goLiveEndpoint = defineEndpoint({
  id: 'goLive',
  projectPermission: 'manage broadcast',
  method: 'post',
  path: '/api/v1/projects/:projectId/broadcast',
  summary:
    'Go Live: prepare the platforms, then start pushing to every enabled destination (and record it when asked). 409 CONFLICT while a broadcast is active.',
  tag: 'broadcasts',
  access: 'user',
  params: projectParams,
  body: goLiveBodySchema.optional(),
  response: broadcastViewSchema,
  successStatus: 201,
});

export const endBroadcastEndpoint = defineEndpoint({
  id: 'endBroadcast',
  projectPermission: 'manage broadcast',
  method: 'post',
  path: '/api/v1/projects/:projectId/broadcast/end',
  summary: 'End Broadcast: stop every output.',
  tag: 'broadcasts',
  access: 'user',
  params: projectParams,
  response: broadcastViewSchema,
});

export const destinationEndpoints = [
  listDestinationsEndpoint,
  getDestinationPickerEndpoint,
  ensureAuthenticationEndpoint,
  startPlatformBroadcastsEndpoint,
  createDestinationEndpoint,
  updateDestinationEndpoint,
  deleteDestinationEndpoint,
  refreshDestinationTokenEndpoint,
  listStreamDestinationsEndpoint,
  getBroadcastEndpoint,
  goLiveEndpoint,
  endBroadcastEndpoint,
] as const;

/** The OAuth popup (spec §7 `/auth/{provider}`, at most 600×700): a browser navigation, not a JSON call. */
export const destinationOAuthPaths = {
  start: (provider: string, projectId: string, destinationId: string) =>
    `/api/v1/destinations/auth/${provider}?projectId=${encodeURIComponent(projectId)}&destinationId=${encodeURIComponent(destinationId)}`,
  callback: (provider: string) => `/api/v1/destinations/auth/${provider}/callback`,
} as const;
export const OAUTH_POPUP_SIZE = { width: 600, height: 700 } as const;

/** What the popup posts to the studio window (same origin only) when the flow ends. */
export const oauthPopupResultSchema = z.object({
  source: z.literal('onair-destination-auth'),
  destinationId: z.string(),
  ok: z.boolean(),
  error: z.string().optional(),
});
export type OAuthPopupResult = z.infer<typeof oauthPopupResultSchema>;
