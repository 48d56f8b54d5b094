import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BroadcastView, DestinationView } from '@onair/protocol';
import { createHttpClient } from '../api/http-client.ts';
import { initialDestinationsState, useDestinationsStore, useToastStore } from '../stores/index.ts';
import { sendJson, startTestServer, type TestServer } from '../test/http-server.ts';
import {
  askEndBroadcast,
  askRemoveDestination,
  endBroadcast,
  keepBroadcasting,
  requestGoLive,
  skipDestinationForGoLive,
  confirmRemoveDestination,
  keepDestination,
  loadDestinations,
  openDestinationPicker,
  pickDestination,
  receiveDestinationMessage,
  setDestinationFormValue,
  startAddDestination,
  submitDestinationForm,
  toggleDestination,
} from './destinations.ts';

const projectId = '00000000-0000-4000-8000-0000000000aa';
const view = (over: Partial<DestinationView> = {}): DestinationView => ({
  id: '00000000-0000-4000-8000-000000000001',
  projectId,
  type: 'CustomRTMP',
  providerId: 'custom',
  name: 'Mine',
  enabled: true,
  username: null,
  logo: null,
  dashboardUrl: null,
  settings: {},
  rtmpUrl: 'rtmp://example.com/live',
  streamKeyMasked: null,
  authenticated: true,
  needsSignIn: false,
  autoLive: false,
  canvas: 'horizontal',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

let server: TestServer | undefined;
let requests: { method: string; url: string; body: unknown }[];
let reply: (method: string, url: string) => { status: number; body?: unknown };

beforeEach(async () => {
  useDestinationsStore.setState(initialDestinationsState());
  useToastStore.setState({ toasts: [] });
  requests = [];
  reply = () => ({ status: 404, body: { error: { code: 'NOT_FOUND', message: 'no' } } });
  server = await startTestServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      requests.push({ method: req.method ?? '', url: req.url ?? '', body: text ? JSON.parse(text) : undefined });
      const r = reply(req.method ?? '', req.url ?? '');
      if (r.status === 204) res.writeHead(204).end();
      else sendJson(res, r.status, r.body);
    });
  });
});
afterEach(async () => {
  await server?.close();
});

const client = () => createHttpClient({ baseUrl: server?.baseUrl ?? '', timeoutMs: 2000 });
const base = `/api/v1/projects/${projectId}`;

async function loaded(destinations: DestinationView[], maximum: number | null = 2): Promise<void> {
  reply = (method, url) => {
    if (url === `${base}/destinations`)
      return {
        status: 200,
        body: { destinations, limit: { maximum, count: destinations.length, reached: maximum !== null && destinations.length >= maximum }, autoLive: false },
      };
    if (url === `${base}/destinations/picker`) return { status: 200, body: { tiles: [], limit: { maximum, count: destinations.length, reached: false } } };
    if (url === `${base}/broadcast`) return { status: 200, body: { broadcast: null } };
    return { status: 500, body: { error: { code: 'INTERNAL', message: `${method} ${url}` } } };
  };
  await loadDestinations(projectId, client());
  expect(useDestinationsStore.getState().status).toBe('ready');
}

describe('the Add Destination picker', () => {
  it('adds the local destination in one click, without a form', async () => {
    await loaded([]);
    openDestinationPicker();
    const local = view({
      id: '00000000-0000-4000-8000-000000000009',
      type: 'Local',
      providerId: 'local',
      name: 'Local preview server',
      rtmpUrl: 'rtmp://127.0.0.1:19350/live',
    });
    reply = (method, url) =>
      method === 'POST' && url === `${base}/destinations`
        ? { status: 201, body: local }
        : { status: 500, body: { error: { code: 'INTERNAL', message: 'no' } } };
    await pickDestination('Local', client());
    expect(requests.at(-1)).toEqual({ method: 'POST', url: `${base}/destinations`, body: { type: 'Local' } });
    expect(useDestinationsStore.getState()).toMatchObject({ pickerOpen: false, form: null, destinations: [local], limit: { count: 1 } });
  });

  it('opens the form for a kind that needs details, and says why a one-click add failed', async () => {
    await loaded([]);
    await pickDestination('CustomRTMP', client());
    expect(useDestinationsStore.getState().form).toMatchObject({ type: 'CustomRTMP', editing: null });
    useDestinationsStore.setState({ form: null });
    reply = () => ({ status: 403, body: { error: { code: 'PLAN_LIMIT_REACHED', message: 'Your plan allows up to 2 destinations. Upgrade to add more.' } } });
    await pickDestination('Local', client());
    expect(useDestinationsStore.getState().destinations).toEqual([]);
    expect(useToastStore.getState().toasts).toEqual([
      expect.objectContaining({ kind: 'error', title: 'The destination was not added', description: expect.stringContaining('up to 2 destinations') }),
    ]);
  });
});

describe('the Add/Edit form', () => {
  it('shows the rule messages without sending anything while the form is invalid', async () => {
    await loaded([]);
    startAddDestination('CustomRTMP');
    setDestinationFormValue('rtmpUrl', 'srt://x');
    const before = requests.length;
    await submitDestinationForm(client());
    expect(requests.length).toBe(before);
    expect(useDestinationsStore.getState().form?.errors).toEqual({
      name: 'Enter a name of 1 to 100 characters.',
      rtmpUrl: 'The server URL must start with rtmp:// or rtmps://.',
    });
    setDestinationFormValue('name', 'Ok');
    expect(useDestinationsStore.getState().form?.errors).toEqual({ rtmpUrl: 'The server URL must start with rtmp:// or rtmps://.' });
  });

  it("puts the api's refusal under the field it names, or above the buttons", async () => {
    await loaded([]);
    startAddDestination('CustomRTMP');
    setDestinationFormValue('name', 'LAN');
    setDestinationFormValue('rtmpUrl', 'rtmp://10.0.0.2/live');
    reply = () => ({
      status: 422,
      body: {
        error: {
          code: 'DESTINATION_ADDRESS_REFUSED',
          message: 'That server address cannot be used: it points at a private network address (10.0.0.2).',
          details: { field: 'rtmpUrl' },
        },
      },
    });
    await submitDestinationForm(client());
    expect(requests.at(-1)).toMatchObject({
      method: 'POST',
      url: `${base}/destinations`,
      body: { type: 'CustomRTMP', name: 'LAN', rtmpUrl: 'rtmp://10.0.0.2/live', streamKey: '' },
    });
    expect(useDestinationsStore.getState().form).toMatchObject({
      saving: false,
      formError: null,
      errors: { rtmpUrl: expect.stringContaining('private network') },
    });

    setDestinationFormValue('rtmpUrl', 'rtmp://example.com/live');
    reply = () => ({
      status: 403,
      body: { error: { code: 'PLAN_LIMIT_REACHED', message: 'Add more destinations', details: { rule: 'maximum-destinations' } } },
    });
    await submitDestinationForm(client());
    expect(useDestinationsStore.getState().form).toMatchObject({ formError: 'Add more destinations', errors: {} });
  });

  it('adds the saved destination to the list and closes', async () => {
    await loaded([], 2);
    startAddDestination('CustomRTMP');
    setDestinationFormValue('name', 'Mine');
    setDestinationFormValue('rtmpUrl', 'rtmp://example.com/live');
    reply = () => ({ status: 201, body: view() });
    await submitDestinationForm(client());
    expect(useDestinationsStore.getState()).toMatchObject({ form: null, destinations: [view()], limit: { maximum: 2, count: 1, reached: false } });
  });
});

describe('the list', () => {
  it('toggles at once and puts the toggle back when the api refuses', async () => {
    await loaded([view()]);
    reply = () => ({ status: 200, body: view({ enabled: false }) });
    await toggleDestination(view().id, false, client());
    expect(requests.at(-1)).toMatchObject({ method: 'PATCH', body: { enabled: false } });
    expect(useDestinationsStore.getState().destinations[0]?.enabled).toBe(false);
    reply = () => ({ status: 500, body: { error: { code: 'INTERNAL', message: 'Something went wrong on our side.' } } });
    await toggleDestination(view().id, true, client());
    expect(useDestinationsStore.getState().destinations[0]?.enabled).toBe(false);
    expect(useToastStore.getState().toasts.at(-1)).toMatchObject({ kind: 'error', title: 'The destination was not changed' });
  });

  it("removes only after 'Remove Destination'; 'Keep it' keeps it", async () => {
    await loaded([view()], 2);
    askRemoveDestination(view().id);
    keepDestination();
    expect(useDestinationsStore.getState()).toMatchObject({ removing: null, destinations: [view()] });
    askRemoveDestination(view().id);
    reply = () => ({ status: 204 });
    await confirmRemoveDestination(client());
    expect(requests.at(-1)).toMatchObject({ method: 'DELETE', url: `${base}/destinations/${view().id}` });
    expect(useDestinationsStore.getState()).toMatchObject({ removing: null, destinations: [], limit: { count: 0, reached: false } });
  });

  it('lets only the newest load land, and reads again when an event arrived while it was in flight', async () => {
    await loaded([]);
    const added = view({ id: '00000000-0000-4000-8000-000000000009' });
    let answered = 0;
    reply = (_method, url) => {
      if (url === `${base}/destinations`) {
        answered++;
        // The first answer was read before the add and arrives after the Added event.
        const destinations = answered === 1 ? [] : [added];
        if (answered === 1) receiveDestinationMessage({ type: 'destination.event', projectId, event: 'Added', destinationId: added.id, destination: added });
        return { status: 200, body: { destinations, limit: { maximum: 2, count: destinations.length, reached: false }, autoLive: false } };
      }
      if (url === `${base}/destinations/picker`) return { status: 200, body: { tiles: [], limit: { maximum: 2, count: 0, reached: false } } };
      return { status: 200, body: { broadcast: null } };
    };
    await loadDestinations(projectId, client());
    expect(answered).toBe(2);
    expect(useDestinationsStore.getState().destinations.map((d) => d.id)).toEqual([added.id]);
  });

  it('follows Added, Changed, Removed and Authenticated from other studios', async () => {
    await loaded([], 2);
    const twitch = view({ id: '00000000-0000-4000-8000-000000000002', type: 'Twitch', authenticated: false });
    receiveDestinationMessage({ type: 'destination.event', projectId, event: 'Added', destinationId: twitch.id, destination: twitch });
    receiveDestinationMessage({ type: 'destination.event', projectId, event: 'Added', destinationId: view().id, destination: view() });
    expect(useDestinationsStore.getState().limit).toMatchObject({ count: 2, reached: true });
    useDestinationsStore.setState({ authenticating: twitch.id });
    receiveDestinationMessage({
      type: 'destination.event',
      projectId,
      event: 'Authenticated',
      destinationId: twitch.id,
      destination: { ...twitch, authenticated: true, username: 'Ada' },
    });
    expect(useDestinationsStore.getState()).toMatchObject({ authenticating: null });
    expect(useDestinationsStore.getState().destinations.find((d) => d.id === twitch.id)?.authenticated).toBe(true);
    receiveDestinationMessage({ type: 'destination.event', projectId, event: 'Removed', destinationId: view().id, destination: null });
    expect(useDestinationsStore.getState().destinations.map((d) => d.id)).toEqual([twitch.id]);
    // Another project's events are not ours.
    receiveDestinationMessage({
      type: 'destination.event',
      projectId: '00000000-0000-4000-8000-0000000000bb',
      event: 'Removed',
      destinationId: twitch.id,
      destination: null,
    });
    expect(useDestinationsStore.getState().destinations).toHaveLength(1);
  });
});

describe('going live and ending, deliberately (issue 52)', () => {
  const live: BroadcastView = {
    id: '00000000-0000-4000-8000-0000000000b1',
    projectId,
    state: 'live',
    failureReason: null,
    startedAt: '2026-01-01T10:00:00.000Z',
    endedAt: null,
    endsAt: null,
    outputs: [],
    recordingId: null,
  };

  it('Go Live opens the check instead of starting while a destination needs sign-in; Skip switches it off; then it goes live', async () => {
    const youtube = view({ id: '00000000-0000-4000-8000-000000000002', type: 'YouTube', name: 'My channel', authenticated: false });
    await loaded([view(), youtube]);
    await requestGoLive(client());
    expect(useDestinationsStore.getState().goLiveCheckOpen).toBe(true);
    expect(requests.some((r) => r.method === 'POST' && r.url === `${base}/broadcast`)).toBe(false);

    reply = () => ({ status: 200, body: { ...youtube, enabled: false } });
    await skipDestinationForGoLive(youtube.id, client());
    expect(requests.at(-1)).toMatchObject({ method: 'PATCH', url: `${base}/destinations/${youtube.id}`, body: { enabled: false } });

    reply = (method, url) => (method === 'POST' && url === `${base}/broadcast` ? { status: 201, body: live } : { status: 404 });
    await requestGoLive(client());
    expect(useDestinationsStore.getState()).toMatchObject({ goLiveCheckOpen: false, broadcast: { state: 'live' } });
  });

  it('End Broadcast asks first; confirmed, it ends and keeps a summary of what the studio saw while live', async () => {
    await loaded([view({ name: 'Office' })]);
    useDestinationsStore.setState({
      broadcast: live,
      health: { [view().id]: { destinationId: view().id, state: 'reconnecting', bitrateKbps: 0, reconnects: 3 } },
    });
    askEndBroadcast();
    expect(useDestinationsStore.getState().endConfirmOpen).toBe(true);
    keepBroadcasting();
    expect(useDestinationsStore.getState().endConfirmOpen).toBe(false);
    expect(requests.some((r) => r.url === `${base}/broadcast/end`)).toBe(false);

    askEndBroadcast();
    reply = () => ({
      status: 200,
      body: { ...live, state: 'ended', endedAt: '2026-01-01T10:05:00.000Z', recordingId: '00000000-0000-4000-8000-0000000000c1' },
    });
    await endBroadcast(client());
    const s = useDestinationsStore.getState();
    expect(s.endConfirmOpen).toBe(false);
    expect(s.health).toEqual({});
    expect(s.summary).toEqual({
      duration: '0:05:00',
      recordingId: '00000000-0000-4000-8000-0000000000c1',
      rows: [{ destinationId: view().id, name: 'Office', light: 'reconnecting', reconnects: 3, reason: null }],
    });
  });
});
