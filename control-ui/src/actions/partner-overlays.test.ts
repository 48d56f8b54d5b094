import { beforeEach, describe, expect, it } from 'vitest';
import type { Overlay } from '@onair/protocol';
import type { HttpClient } from '../api/http-client.ts';
import { RequestFailedError } from '../api/http-errors.ts';
import { initialOverlaysState, useOverlaysStore } from '../stores/index.ts';
import { addWidget, openOverlay, saveOverlay, updateWidget } from './partner-overlays.ts';

const overlay: Overlay = {
  id: '00000000-0000-4000-8000-000000000001',
  channelId: 'owner-1',
  name: 'Main',
  widgets: [],
  triggerAccess: { mode: 'all', whitelist: [] },
  url: 'http://localhost:8080/overlay/o/00000000-0000-4000-8000-000000000001?key=k',
  studioUrl: 'http://localhost:8080/overlay/o/00000000-0000-4000-8000-000000000001?key=k&onair-sig=s',
  updatedAt: '2026-11-25T12:00:00.000Z',
};

/** A client that answers every GET with the overlay and records what it was sent. */
function clientOf(put: (body: unknown) => Promise<unknown> = async (b) => ({ ...overlay, ...(b as object) })): HttpClient & { gets: number } {
  const client = {
    gets: 0,
    getJson: async <T,>() => {
      client.gets++;
      return overlay as T;
    },
    sendJson: async <T,>(_m: string, _p: string, body: unknown) => (await put(body)) as T,
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
    const refused = clientOf(() => Promise.reject(new RequestFailedError(400, { error: { code: 'VALIDATION_FAILED', message: 'bad', details: { issues: [{ path: ['widgets', 0, 'text'], message: 'Keep the message under 481 characters' }] } } })));
    expect(await saveOverlay('owner-1', refused)).toBe(false);
    expect(useOverlaysStore.getState()).toMatchObject({ error: 'Some settings are not valid: see the marked widgets.', fieldErrors: { 'widgets.0.text': 'Keep the message under 481 characters' } });
  });
});
