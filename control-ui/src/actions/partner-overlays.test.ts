import { beforeEach, describe, expect, it } from 'vitest';
import type { Overlay } from '@onair/protocol';
import type { HttpClient } from '../api/http-client.ts';
import { RequestFailedError } from '../api/http-errors.ts';
import { initialOverlaysState, useOverlaysStore } from '../stores/index.ts';
import { addWidget, openOverlay, savedOverlayImageSrc, saveOverlay, updateWidget, uploadOverlayImage } from './partner-overlays.ts';

const overlay: Overlay = {
  id: '00000000-0000-4000-8000-000000000001',
  channelId: 'owner-1',
  name: 'Main',
  widgets: [],
  triggerAccess: { mode: 'all', whitelist: [] },
  url: 'http://localhost:8080/overlay/o/00000000-0000-4000-8000-000000000001?key=k',
  studioUrl: 'http://localhost:8080/overlay/o/00000000-0000-4000-8000-000000000001?key=k&onair-sig=s',
  images: {},
  maxImageBytes: 300_000,
  updatedAt: '2026-11-25T12:00:00.000Z',
};

/** A client that answers every GET with the overlay and records what it was sent. */
function clientOf(put: (body: unknown) => Promise<unknown> = async (b) => ({ ...overlay, ...(b as object) })): HttpClient & { gets: number } {
  const client = {
    gets: 0,
    getJson: async <T>() => {
      client.gets++;
      return overlay as T;
    },
    sendJson: async <T>(_m: string, _p: string, body: unknown) => (await put(body)) as T,
  };
  return client;
}

beforeEach(() => useOverlaysStore.setState(initialOverlaysState()));

describe('overlay editor actions', () => {
  it('keeps widgets on the 1280×720 canvas however far they are dragged', async () => {
    await openOverlay('owner-1', overlay.id, clientOf());
    addWidget('text');
    const id = useOverlaysStore.getState().selectedWidgetId!;
    updateWidget(id, { x: 5000, y: -40 });
    expect(useOverlaysStore.getState().draft!.widgets[0]).toMatchObject({ x: 880, y: 0, width: 400 });
    updateWidget(id, { width: 9000, height: 3 });
    expect(useOverlaysStore.getState().draft!.widgets[0]).toMatchObject({ x: 0, width: 1280, height: 16 });
  });

  it('does not throw away unsaved widgets when the editor is opened again', async () => {
    const client = clientOf();
    await openOverlay('owner-1', overlay.id, client);
    addWidget('goalBar');
    await openOverlay('owner-1', overlay.id, client);
    expect(client.gets).toBe(1);
    expect(useOverlaysStore.getState().draft!.widgets.map((w) => w.kind)).toEqual(['goalBar']);
  });

  it('marks the widget fields the api refused, by their path', async () => {
    await openOverlay('owner-1', overlay.id, clientOf());
    addWidget('text');
    const refused = clientOf(() =>
      Promise.reject(
        new RequestFailedError(400, {
          error: {
            code: 'VALIDATION_FAILED',
            message: 'bad',
            details: { issues: [{ path: ['widgets', 0, 'text'], message: 'Keep the message under 481 characters' }] },
          },
        }),
      ),
    );
    expect(await saveOverlay('owner-1', refused)).toBe(false);
    expect(useOverlaysStore.getState()).toMatchObject({
      error: 'Some settings are not valid: see the marked widgets.',
      fieldErrors: { 'widgets.0.text': 'Keep the message under 481 characters' },
    });
  });

  it('puts an uploaded picture on the image widget in place of its address, and gives the refusal in the server’s words', async () => {
    await openOverlay('owner-1', overlay.id, clientOf());
    addWidget('image');
    const id = useOverlaysStore.getState().selectedWidgetId!;
    const uploadId = '00000000-0000-4000-8000-0000000000aa';
    const sent: string[] = [];
    const accepted = async (url: string) => {
      sent.push(url);
      return {
        status: 201,
        body: {
          id: uploadId,
          projectId: null,
          purpose: 'overlay',
          kind: 'image',
          mimeType: 'image/png',
          name: 'logo.png',
          sizeBytes: 10,
          width: 32,
          height: 16,
          durationSeconds: null,
          hasAudio: false,
          createdAt: '2026-11-25T12:00:00.000Z',
        },
      };
    };
    expect(await uploadOverlayImage('owner-1', id, new File([new Uint8Array(10)], 'logo.png'), accepted)).toBeNull();
    expect(sent).toEqual(['/api/v1/partner/channels/owner-1/overlay-images?name=logo.png']);
    const state = useOverlaysStore.getState();
    expect(state.draft!.widgets[0]).toMatchObject({ kind: 'image', url: '', uploadId });
    expect(state.saved!.images[uploadId]).toEqual({ name: 'logo.png', width: 32, height: 16 });
    // Not on the saved overlay yet: the page would not serve it.
    expect(savedOverlayImageSrc(state.saved!, uploadId)).toBeNull();
    const savedWith = { ...state.saved!, widgets: state.draft!.widgets };
    expect(savedOverlayImageSrc(savedWith, uploadId)).toBe(`/overlay/o/${overlay.id}/images/${uploadId}?key=k`);

    const refused = async () => ({
      status: 415,
      body: { error: { code: 'UPLOAD_TYPE_UNSUPPORTED', message: 'This file type is not supported: use PNG, JPEG, WebP or GIF.' } },
    });
    expect(await uploadOverlayImage('owner-1', id, new File(['<svg/>'], 'logo.svg'), refused)).toBe(
      'This file type is not supported: use PNG, JPEG, WebP or GIF.',
    );
    expect(useOverlaysStore.getState().draft!.widgets[0]).toMatchObject({ uploadId });
  });
});
