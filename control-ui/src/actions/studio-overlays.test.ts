import { beforeEach, describe, expect, it } from 'vitest';
import { newProjectDocument, planEntitlements, type ChannelSummary, type Overlay, type OverlaySummary } from '@onair/protocol';
import type { HttpClient } from '../api/http-client.ts';
import { RequestFailedError } from '../api/http-errors.ts';
import { initialStudioState, useStudioStore, useToastStore } from '../stores/index.ts';
import { addOverlayToScene, loadOverlayChoices } from './studio-overlays.ts';

const ids = {
  projectId: '0b6c2a9e-4f1d-4c3b-9a8e-7d6f5e4c3b2a',
  sceneId: '1c7d3b0f-5a2e-4d4c-8b9f-8e7a6f5d4c3b',
  watermarkSourceId: '2d8e4c1a-6b3f-4e5d-9ca0-9f8b7a6e5d4c',
  watermarkLayerId: '3e9f5d2b-7c4a-4f6e-8db1-a09c8b7f6e5d',
};
const overlayId = '00000000-0000-4000-8000-000000000001';
const page = `https://onair.example/overlay/o/${overlayId}?key=k`;
const overlay = (sig: string): Overlay => ({
  id: overlayId,
  channelId: 'me',
  name: 'Stream overlay',
  widgets: [],
  triggerAccess: { mode: 'all', whitelist: [] },
  url: page,
  studioUrl: `${page}&onair-sig=${sig}`,
  images: {},
  maxImageBytes: 1,
  updatedAt: '2026-11-25T12:00:00.000Z',
});
const summary = (id: string, name: string): OverlaySummary => ({ id, name, updatedAt: '2026-11-25T12:00:00.000Z', widgetCount: 2 });

/** Answers GETs by path; scene patches are left pending (what the studio shows is what is checked here). */
function clientOf(answers: Record<string, unknown>): HttpClient & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    getJson: async <T>(path: string) => {
      asked.push(path);
      if (!(path in answers)) throw new RequestFailedError(403, { error: { code: 'FORBIDDEN', message: 'No.' } });
      return answers[path] as T;
    },
    sendJson: () => new Promise<never>(() => undefined),
  } as unknown as HttpClient & { asked: string[] };
}

beforeEach(() => {
  useToastStore.setState({ toasts: [] });
  const doc = newProjectDocument({ ...ids, resolution: '720p' });
  useStudioStore.setState({
    ...initialStudioState(),
    projectId: ids.projectId,
    status: 'ready',
    confirmed: doc,
    document: doc,
    entitlements: planEntitlements.Free,
  });
});

describe('the studio overlay picker', () => {
  it('offers the overlays of the channels the user may view overlays of, the own channel first', async () => {
    const channels: ChannelSummary[] = [
      { id: 'chat-only', name: 'Bea', owner: false, permissions: ['chatbot.chat'] },
      { id: 'viewer', name: 'Cy', owner: false, permissions: ['overlay.view'] },
      { id: 'me', name: 'Ada', owner: true, permissions: [] },
    ];
    const client = clientOf({
      '/api/v1/partner/channels': { channels },
      '/api/v1/partner/channels/me/overlays': { overlays: [summary(overlayId, 'Stream overlay')] },
      '/api/v1/partner/channels/viewer/overlays': { overlays: [summary('00000000-0000-4000-8000-000000000002', 'Cy alerts')] },
    });
    const result = await loadOverlayChoices(client);
    expect(result).toEqual({
      ok: true,
      value: [
        { channelId: 'me', channelName: 'Ada', owner: true, overlayId, name: 'Stream overlay', widgetCount: 2 },
        { channelId: 'viewer', channelName: 'Cy', owner: false, overlayId: '00000000-0000-4000-8000-000000000002', name: 'Cy alerts', widgetCount: 2 },
      ],
    });
    // A channel shared without an Overlay group is not asked for its overlays.
    expect(client.asked).not.toContain('/api/v1/partner/channels/chat-only/overlays');
  });

  it('adds the overlay as a keep-loaded web page over the whole canvas by its studio address; again, the same source gets today’s address', async () => {
    expect(await addOverlayToScene({ channelId: 'me', overlayId }, clientOf({ [`/api/v1/partner/channels/me/overlays/${overlayId}`]: overlay('one') }))).toBe(
      true,
    );
    let doc = useStudioStore.getState().document!;
    const pages = () => useStudioStore.getState().document!.sources.filter((s) => s.kind === 'webpage');
    expect(pages()).toHaveLength(1);
    expect(pages()[0]).toMatchObject({ name: 'Stream overlay', settings: { config: { url: `${page}&onair-sig=one`, mode: 'keep-loaded' } } });
    const layers = () =>
      useStudioStore
        .getState()
        .document!.scenes.find((s) => s.id === doc.activeSceneId)!
        .layers.filter((l) => l.sourceId === pages()[0]!.id);
    expect(layers().map((l) => [l.x, l.y, l.width, l.height])).toEqual([[0, 0, 1280, 720]]);

    // Again in the same scene (a source shows once per scene): the same source, today's address, no second layer.
    const again = await addOverlayToScene({ channelId: 'me', overlayId }, clientOf({ [`/api/v1/partner/channels/me/overlays/${overlayId}`]: overlay('two') }));
    expect(again).toBe(true);
    expect(useToastStore.getState().toasts.map((t) => t.title)).toEqual(['Stream overlay added to the scene', 'Stream overlay is already in this scene']);
    doc = useStudioStore.getState().document!;
    expect(pages()).toHaveLength(1);
    expect(pages()[0]!.settings).toMatchObject({ config: { url: `${page}&onair-sig=two` } });
    expect(layers()).toHaveLength(1);
  });

  it('says why when the overlay cannot be read, and changes nothing', async () => {
    const before = useStudioStore.getState().document;
    expect(await addOverlayToScene({ channelId: 'me', overlayId }, clientOf({}))).toBe(false);
    expect(useStudioStore.getState().document).toBe(before);
  });
});
