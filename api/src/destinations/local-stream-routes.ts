import { Router } from 'express';
import { getLocalStreamEndpoint, LOCAL_STREAM_WATCH_PATH, OnAirError, rotateLocalStreamEndpoint, rtmpCallbackQuerySchema } from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import { authenticate, getCurrentUser, type SessionResolver } from '../http/auth-context.ts';
import type { CurrentUser } from '../http/auth-context.ts';
import { mount } from '../http/mount.ts';
import { sameSecret } from '../http/same-secret.ts';
import type { DestinationService } from './destination-service.ts';
import type { LocalStreams } from './local-streams.ts';
import { mountLocalStreamWatch } from './local-stream-watch.ts';

/** Where the Local RTMP server's on_publish arrives; the secret in the path is the server's credential (never logged: see app.ts). */
export const LOCAL_STREAM_CALLBACK_PREFIX = '/api/internal/local-stream';

/**
 * A Local destination's own stream: its address and Watch player for the studio (the endpoint's
 * project permission), its rotation, and the RTMP server's on_publish callback, which lets only the
 * project's pipeline publish to a known name.
 */
export function localStreamRoutes(deps: {
  db: Db;
  resolveSession: SessionResolver;
  destinations: DestinationService;
  localStreams: LocalStreams;
  callbackSecret: string | undefined;
  /** LOCAL_RTMP_HLS_URL: the local RTMP server's HLS, for Local destinations' Watch player. */
  hlsBaseUrl: string | undefined;
  logger: Logger;
}): Router {
  const router = Router();
  router.use(['/api/v1/projects/:projectId/destinations/:destinationId/local-stream', LOCAL_STREAM_WATCH_PATH], authenticate(deps.db, deps.resolveSession));
  const localRow = async (user: CurrentUser, projectId: string, destinationId: string) => {
    const row = await deps.destinations.get(user, projectId, destinationId);
    if (row.type !== 'Local') throw new OnAirError('NOT_FOUND', 'This destination is not a Local destination.');
    return row;
  };
  mount(router, getLocalStreamEndpoint, async ({ params }, { req }) =>
    deps.localStreams.view(await localRow(getCurrentUser(req), params.projectId, params.destinationId)),
  );
  mount(router, rotateLocalStreamEndpoint, async ({ params }, { req }) =>
    deps.localStreams.rotate(await localRow(getCurrentUser(req), params.projectId, params.destinationId)),
  );
  // The studio's Watch player: the stream's HLS, proxied from the RTMP server.
  mountLocalStreamWatch(router, { destinations: deps.destinations, names: deps.localStreams, hlsBaseUrl: deps.hlsBaseUrl, logger: deps.logger });

  // nginx-rtmp's on_publish (`notify_method get`): a 2xx accepts the publish, anything else refuses
  // it. The publish address's query (the proof) arrives among the callback's arguments.
  router.get(`${LOCAL_STREAM_CALLBACK_PREFIX}/:secret/publish`, async (req, res) => {
    const secret = deps.callbackSecret;
    if (!secret || !sameSecret(String(req.params.secret ?? ''), secret)) {
      res.status(403).end();
      return;
    }
    const query = rtmpCallbackQuerySchema.safeParse(req.query);
    if (!query.success || query.data.call !== 'publish') {
      res.status(400).end();
      return;
    }
    try {
      res.status((await deps.localStreams.onPublish(query.data)) ? 204 : 403).end();
    } catch (err) {
      deps.logger.error({ err: (err as Error).message }, 'local stream callback failed');
      if (!res.headersSent) res.status(500).end();
    }
  });
  return router;
}
