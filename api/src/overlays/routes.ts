import { Router } from 'express';
import { createOverlayEndpoint, deleteOverlayEndpoint, getOverlayEndpoint, listOverlaysEndpoint, rotateOverlaySecretEndpoint, updateOverlayEndpoint } from '@onair/protocol';
import { mount, Reply } from '../http/mount.ts';
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
