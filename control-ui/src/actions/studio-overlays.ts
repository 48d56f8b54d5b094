import { channelAllows, getOverlayEndpoint, listChannelsEndpoint, listOverlaysEndpoint, OVERLAY_CANVAS, type ChannelSummary } from '@onair/protocol';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { useStudioStore } from '../stores/index.ts';
import { messageOf } from './api-errors.ts';
import type { Result } from './result.ts';
import { editScene } from './scene-edits.ts';
import { showToast } from './toasts.ts';

/** An overlay the studio's picker offers: of a channel the user may view overlays of (their own, or as a collaborator). */
export interface OverlayChoice {
  channelId: string;
  channelName: string;
  owner: boolean;
  overlayId: string;
  name: string;
  widgetCount: number;
}

const pathOf = (url: string) => {
  try {
    return new URL(url).pathname;
  } catch {
    return null;
  }
};
const roleOf = (c: ChannelSummary) => (c.owner ? ({ kind: 'owner' } as const) : ({ kind: 'collaborator', groups: c.permissions } as const));

/** The overlays of every channel the user may view overlays of, the own channel first. */
export async function loadOverlayChoices(client: HttpClient = httpClient): Promise<Result<OverlayChoice[]>> {
  try {
    const { channels } = await call(listChannelsEndpoint, {}, client);
    const viewable = channels.filter((c) => channelAllows(roleOf(c), 'view overlays')).sort((a, b) => Number(b.owner) - Number(a.owner));
    const lists = await Promise.all(
      viewable.map(async (c) => {
        const { overlays } = await call(listOverlaysEndpoint, { params: { channelId: c.id } }, client);
        return overlays.map((o) => ({ channelId: c.id, channelName: c.name, owner: c.owner, overlayId: o.id, name: o.name, widgetCount: o.widgetCount }));
      }),
    );
    return { ok: true, value: lists.flat() };
  } catch (err) {
    return { ok: false, message: messageOf(err), fieldErrors: {} };
  }
}

/**
 * Puts an overlay in the active scene as a web-page source over the whole canvas, by its signed
 * studio address (the only private address the scene rules and the render worker accept). An
 * overlay already among the project's sources gets one more layer, with today's address.
 */
export async function addOverlayToScene(choice: Pick<OverlayChoice, 'channelId' | 'overlayId'>, client: HttpClient = httpClient): Promise<boolean> {
  let overlay;
  try {
    overlay = await call(getOverlayEndpoint, { params: { channelId: choice.channelId, overlayId: choice.overlayId } }, client);
  } catch (err) {
    showToast({ kind: 'error', title: 'The overlay could not be added', description: messageOf(err) });
    return false;
  }
  const doc = useStudioStore.getState().document;
  const sceneId = doc?.activeSceneId;
  if (!doc || !sceneId) return false;
  const page = `/overlay/o/${overlay.id}`;
  // The same overlay added before (perhaps under an older address or signature).
  const existing = doc.sources.find((s) => s.kind === 'webpage' && pathOf(s.settings.config.url) === page);
  const sourceId = existing?.id ?? crypto.randomUUID();
  const stale = existing?.kind === 'webpage' && existing.settings.config.url !== overlay.studioUrl;
  const refresh = stale ? [{ op: 'updateSource' as const, sourceId, settings: { kind: 'webpage' as const, config: { url: overlay.studioUrl } } }] : [];
  // A source shows once per scene: already here, it only gets today's address.
  const shownHere = doc.scenes.find((s) => s.id === sceneId)?.layers.find((l) => l.sourceId === existing?.id);
  if (shownHere) {
    const ok = refresh.length === 0 || editScene(refresh, client);
    if (ok) {
      useStudioStore.setState({ selectedLayerId: shownHere.id });
      showToast({ kind: 'info', title: `${overlay.name} is already in this scene` });
    }
    return ok;
  }
  const layerId = crypto.randomUUID();
  const ok = editScene(
    [
      ...(existing
        ? []
        : [
            {
              op: 'addSource' as const,
              source: {
                id: sourceId,
                kind: 'webpage' as const,
                name: overlay.name,
                settings: { config: { url: overlay.studioUrl, title: overlay.name, canPreviewUrl: false, mode: 'keep-loaded' as const } },
              },
            },
          ]),
      ...refresh,
      { op: 'addLayer', sceneId, layer: { id: layerId, sourceId, x: 0, y: 0, width: OVERLAY_CANVAS.width, height: OVERLAY_CANVAS.height } },
    ],
    client,
  );
  if (ok) {
    useStudioStore.setState({ selectedLayerId: layerId });
    showToast({ kind: 'success', title: `${overlay.name} added to the scene` });
  }
  return ok;
}
