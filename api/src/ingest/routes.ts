import { Router, type Request, type Response } from 'express';
import { getIngestEndpoint, regenerateIngestKeyEndpoint, rtmpCallbackQuerySchema, setAutoLiveEndpoint } from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import { authenticate, type SessionResolver } from '../http/auth-context.ts';
import { mount } from '../http/mount.ts';
import { sameSecret } from '../http/same-secret.ts';
import type { IngestService } from './ingest-service.ts';

/** Where the RTMP server's callbacks arrive; the secret in the path is the server's credential (never logged: see app.ts). */
export const INGEST_CALLBACK_PREFIX = '/api/internal/ingest';

export function ingestRoutes(deps: {
  db: Db;
  ingest: IngestService;
  resolveSession: SessionResolver;
  callbackSecret: string | undefined;
  logger: Logger;
}): Router {
  const { ingest } = deps;
  const router = Router();
  router.use(['/api/v1/projects/:projectId/ingest', '/api/v1/projects/:projectId/auto-live'], authenticate(deps.db, deps.resolveSession));
  mount(router, getIngestEndpoint, async ({ params }) => ingest.view(params.projectId));
  mount(router, regenerateIngestKeyEndpoint, async ({ params }) => ingest.regenerate(params.projectId));
  mount(router, setAutoLiveEndpoint, async ({ params, body }) => ingest.setAutoLive(params.projectId, body.enabled));

  // nginx-rtmp's notify callbacks (`notify_method get`): a 2xx accepts, a 3xx with Location renames
  // the stream, anything else refuses or drops the publisher. Answers carry no body.
  const callback = (handle: (req: Request, res: Response) => Promise<void>) => async (req: Request, res: Response) => {
    const secret = deps.callbackSecret;
    if (!secret || !sameSecret(String(req.params.secret ?? ''), secret)) {
      res.status(403).end();
      return;
    }
    try {
      await handle(req, res);
    } catch (err) {
      deps.logger.error({ err: (err as Error).message, call: req.params.call }, 'ingest callback failed');
      if (!res.headersSent) res.status(500).end();
    }
  };
  router.get(
    `${INGEST_CALLBACK_PREFIX}/:secret/:call`,
    callback(async (req, res) => {
      const query = rtmpCallbackQuerySchema.safeParse(req.query);
      if (!query.success) {
        res.status(400).end();
        return;
      }
      switch (req.params.call) {
        case 'publish': {
          const decision = await ingest.onPublish(query.data);
          if (decision.accept) res.status(302).set('Location', decision.streamName).end();
          else res.status(decision.status).end();
          return;
        }
        case 'update':
          // Players (media workers pulling a feed) are checked by the server's `allow play` rules.
          if (query.data.call === 'update_play') res.status(204).end();
          else res.status((await ingest.onUpdate(query.data)) ? 204 : 403).end();
          return;
        case 'done':
          await ingest.onPublishDone(query.data);
          res.status(204).end();
          return;
        default:
          res.status(404).end();
      }
    }),
  );
  return router;
}
