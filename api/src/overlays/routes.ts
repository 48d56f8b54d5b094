import { Router } from 'express';
import {
  createOverlayEndpoint,
  deleteOverlayEndpoint,
  getOverlayEndpoint,
  listOverlaysEndpoint,
  rotateOverlaySecretEndpoint,
  updateOverlayEndpoint,
  uploadOverlayImageEndpoint,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import { authenticate, type SessionResolver } from '../http/auth-context.ts';
import { queryTextRule } from '../http/body.ts';
import { mount, Reply } from '../http/mount.ts';
import { provideChannelAccess, type ChannelAccess } from '../access/channel-access.ts';
import type { UploadService } from '../uploads/index.ts';
import type { OverlayService } from './overlay-service.ts';

/** The overlay endpoints of a channel; mount() checks each one's capability (Overlay groups) first. */
export function overlayRoutes(overlays: OverlayService): Router {
  const router = Router();
  mount(router, listOverlaysEndpoint, async ({ params }) => ({ overlays: await overlays.list(params.channelId) }));
  mount(router, createOverlayEndpoint, async ({ params, body }) => new Reply(201, await overlays.create(params.channelId, body.name)));
  mount(router, getOverlayEndpoint, async ({ params }) => overlays.get(params.channelId, params.overlayId));
  mount(router, updateOverlayEndpoint, async ({ params, body }) => overlays.update(params.channelId, params.overlayId, body));
  mount(router, deleteOverlayEndpoint, async ({ params }) => {
    await overlays.remove(params.channelId, params.overlayId);
    return { deleted: true as const };
  });
  mount(router, rotateOverlaySecretEndpoint, async ({ params }) => overlays.rotate(params.channelId, params.overlayId));
  return router;
}

/**
 * Pictures for image widgets, through the uploads store (issue 19's checks: size from
 * Content-Length, type from the bytes, the owner's storage), as the creator site's pictures are.
 * Mounted before the api's JSON body parser: the body is the file. Same access rule as editing
 * overlays (the Overlay edit group).
 */
export function overlayUploadRoutes(deps: { db: Db; uploads: UploadService; resolveSession: SessionResolver; channelAccess: ChannelAccess }): Router {
  const router = Router();
  router.use(uploadOverlayImageEndpoint.path, authenticate(deps.db, deps.resolveSession), provideChannelAccess(deps.channelAccess), queryTextRule());
  mount(router, uploadOverlayImageEndpoint, async ({ params, query }, { req }) => {
    const length = req.headers['content-length'];
    const upload = await deps.uploads.createForChannel(params.channelId, {
      body: req,
      declaredBytes: length === undefined ? undefined : Number(length),
      purpose: 'overlay',
      name: query.name,
    });
    return new Reply(201, upload);
  });
  return router;
}
