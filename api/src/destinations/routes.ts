import { Router, type Response } from 'express';
import {
  createDestinationEndpoint,
  deleteDestinationEndpoint,
  endBroadcastEndpoint,
  ensureAuthenticationEndpoint,
  getLocalStreamEndpoint,
  getBroadcastEndpoint,
  getDestinationPickerEndpoint,
  goLiveEndpoint,
  listDestinationsEndpoint,
  listStreamDestinationsEndpoint,
  oauthProviderSchema,
  OnAirError,
  refreshDestinationTokenEndpoint,
  startPlatformBroadcastsEndpoint,
  updateDestinationEndpoint,
  type OAuthPopupResult,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { Destinations } from './index.ts';
import type { DestinationSecrets } from './destination-secrets.ts';
import { localStreamView } from './local-stream.ts';
import { mountLocalStreamWatch } from './local-stream-watch.ts';
import { authenticate, getCurrentUser, type SessionResolver } from '../http/auth-context.ts';
import { mount, Reply } from '../http/mount.ts';

/**
 * The page the OAuth popup ends on: it tells the studio window (same origin only) how the flow
 * ended and closes itself. The JSON is escaped for a script context.
 */
function popupPage(res: Response, publicUrl: string, result: OAuthPopupResult): void {
  const json = JSON.stringify(result).replace(/</g, '\\u003c');
  const origin = JSON.stringify(new URL(publicUrl).origin);
  const text = result.ok ? 'Connected. You can close this window.' : (result.error ?? 'The connection did not work.').replace(/[<>&]/g, '');
  res
    .status(result.ok ? 200 : 400)
    .type('html')
    .set('cache-control', 'no-store')
    .send(
      `<!doctype html><meta charset="utf-8"><title>OnAir</title><p>${text}</p>` +
        `<script>if (window.opener) { window.opener.postMessage(${json}, ${origin}); window.close(); }</script>`,
    );
}

export function destinationRoutes(deps: {
  db: Db;
  resolveSession: SessionResolver;
  services: Destinations;
  secrets: DestinationSecrets;
  /** LOCAL_RTMP_HLS_URL: the local RTMP server's HLS, for Local destinations' Watch player. */
  localHlsUrl: string | undefined;
  publicUrl: string;
  logger: Logger;
}): Router {
  const { destinations, accounts, broadcasts } = deps.services;
  const router = Router();
  router.use(
    ['/api/v1/projects/:projectId/destinations', '/api/v1/projects/:projectId/broadcast', '/api/v1/destinations/auth'],
    authenticate(deps.db, deps.resolveSession),
  );

  // Fixed paths before `/:destinationId`.
  mount(router, listDestinationsEndpoint, async ({ params }, { req }) => destinations.list(getCurrentUser(req), params.projectId));
  mount(router, getDestinationPickerEndpoint, async ({ params }, { req }) => destinations.picker(getCurrentUser(req), params.projectId));
  mount(router, ensureAuthenticationEndpoint, async ({ params }, { req }) => ({
    statuses: await accounts.ensureAuthentication(getCurrentUser(req), params.projectId),
  }));
  mount(router, startPlatformBroadcastsEndpoint, async ({ params }, { req }) => ({
    destinations: await accounts.prepareBroadcasts(getCurrentUser(req), params.projectId),
  }));
  mount(router, createDestinationEndpoint, async ({ params, body }, { req }) => {
    const created = await destinations.create(getCurrentUser(req), params.projectId, body);
    await broadcasts.syncOutputs(params.projectId);
    return created;
  });
  mount(router, updateDestinationEndpoint, async ({ params, body }, { req }) => {
    const updated = await destinations.update(getCurrentUser(req), params.projectId, params.destinationId, body);
    await broadcasts.syncOutputs(params.projectId);
    return updated;
  });
  mount(router, deleteDestinationEndpoint, async ({ params }, { req }) => {
    await destinations.remove(getCurrentUser(req), params.projectId, params.destinationId);
    await broadcasts.syncOutputs(params.projectId);
    return new Reply(204, undefined);
  });
  mount(router, refreshDestinationTokenEndpoint, async ({ params }, { req }) =>
    accounts.refreshNow(getCurrentUser(req), params.projectId, params.destinationId),
  );
  mount(router, listStreamDestinationsEndpoint, async ({ params }, { req }) => ({
    targets: await accounts.streamTargets(getCurrentUser(req), params.projectId, params.destinationId),
  }));
  mount(router, getBroadcastEndpoint, async ({ params }, { req }) => ({ broadcast: await broadcasts.current(getCurrentUser(req), params.projectId) }));
  mount(router, goLiveEndpoint, async ({ params, body }, { req }) => broadcasts.goLive(getCurrentUser(req), params.projectId, body ?? {}));
  mount(router, endBroadcastEndpoint, async ({ params }, { req }) => broadcasts.end(getCurrentUser(req), params.projectId));
  // A Local destination's own stream: where to watch it, and the studio's Watch player (HLS).
  mount(router, getLocalStreamEndpoint, async ({ params }, { req }) => {
    const row = await destinations.get(getCurrentUser(req), params.projectId, params.destinationId);
    return localStreamView({ secrets: deps.secrets, hlsBaseUrl: deps.localHlsUrl }, row);
  });
  mountLocalStreamWatch(router, { destinations, secrets: deps.secrets, hlsBaseUrl: deps.localHlsUrl, logger: deps.logger });

  // The OAuth popup (spec §7 `/auth/{provider}`): browser navigations answered with a redirect or a page.
  router.get('/api/v1/destinations/auth/:provider', async (req, res) => {
    const provider = oauthProviderSchema.safeParse(req.params.provider);
    const destinationId = typeof req.query.destinationId === 'string' ? req.query.destinationId : '';
    const projectId = typeof req.query.projectId === 'string' ? req.query.projectId : '';
    try {
      if (!provider.success || !/^[0-9a-f-]{36}$/.test(destinationId) || !/^[0-9a-f-]{36}$/.test(projectId)) throw new OnAirError('NOT_FOUND');
      res.redirect(302, await accounts.beginAuthorization(getCurrentUser(req), provider.data, projectId, destinationId));
    } catch (err) {
      popupPage(res, deps.publicUrl, { source: 'onair-destination-auth', destinationId, ok: false, error: messageOf(err) });
    }
  });
  router.get('/api/v1/destinations/auth/:provider/callback', async (req, res) => {
    const provider = oauthProviderSchema.safeParse(req.params.provider);
    const q = (name: string) => (typeof req.query[name] === 'string' ? (req.query[name] as string) : undefined);
    try {
      if (!provider.success) throw new OnAirError('NOT_FOUND');
      const query = { code: q('code'), state: q('state'), error: q('error') };
      const destinationId = await accounts.completeAuthorization(getCurrentUser(req), provider.data, query);
      popupPage(res, deps.publicUrl, { source: 'onair-destination-auth', destinationId, ok: true });
    } catch (err) {
      if (!(err instanceof OnAirError) || err.fault === 'service')
        deps.logger.warn({ code: err instanceof OnAirError ? err.code : 'INTERNAL', provider: req.params.provider }, 'destination authentication failed');
      popupPage(res, deps.publicUrl, { source: 'onair-destination-auth', destinationId: '', ok: false, error: messageOf(err) });
    }
  });
  return router;
}

function messageOf(err: unknown): string {
  return err instanceof OnAirError ? err.message : 'Something went wrong on our side.';
}
