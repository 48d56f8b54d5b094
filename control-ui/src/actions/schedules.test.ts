import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScheduledBroadcast } from '@onair/protocol';
import { createHttpClient } from '../api/http-client.ts';
import { upcoming } from '../model/schedules.ts';
import { initialSchedulesState, useSchedulesStore, useToastStore } from '../stores/index.ts';
import { sendJson, startTestServer, type TestServer } from '../test/http-server.ts';
import { cancelSchedule, loadSchedules, scheduleVideo } from './schedules.ts';

const projectId = '00000000-0000-4000-8000-0000000000aa';
const schedule = (id: string, state: ScheduledBroadcast['state'], startAt: string): ScheduledBroadcast => ({
  id: `00000000-0000-4000-8000-0000000000${id}`,
  projectId,
  uploadId: '00000000-0000-4000-8000-0000000000ee',
  startAt,
  state,
  failureReason: state === 'failed' ? 'The project was already live at the scheduled time.' : null,
  broadcastId: null,
});
const soon = schedule('b1', 'scheduled', '2099-01-01T10:00:00.000Z');
const later = schedule('b2', 'scheduled', '2099-01-02T10:00:00.000Z');

let server: TestServer | undefined;
let requests: string[];
let reply: (method: string) => { status: number; body?: unknown };

beforeEach(async () => {
  useSchedulesStore.setState(initialSchedulesState());
  useToastStore.setState({ toasts: [] });
  requests = [];
  server = await startTestServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const r = reply(req.method ?? '');
    if (r.status === 204) res.writeHead(204).end();
    else sendJson(res, r.status, r.body);
  });
});
afterEach(async () => {
  await server?.close();
});
const client = () => createHttpClient({ baseUrl: server?.baseUrl ?? '', timeoutMs: 2000 });
const base = `/api/v1/projects/${projectId}/scheduled-broadcasts`;

describe('scheduled broadcasts in the Media dialog', () => {
  it('lists them and cancels one, which then leaves the list of upcoming ones', async () => {
    reply = (method) => (method === 'GET' ? { status: 200, body: { scheduled: [soon, later] } } : { status: 204 });
    await loadSchedules(projectId, client());
    expect(useSchedulesStore.getState()).toMatchObject({ status: 'ready', scheduled: [soon, later] });
    expect(await cancelSchedule(projectId, soon.id, client())).toBe(true);
    expect(requests).toEqual([`GET ${base}`, `DELETE ${base}/${soon.id}`]);
    expect(upcoming(useSchedulesStore.getState().scheduled).map((s) => s.id)).toEqual([later.id]);
    expect(useToastStore.getState().toasts.at(-1)).toMatchObject({ kind: 'success', title: 'Scheduled broadcast cancelled' });
  });

  it("says the server's words when it refuses, and shows the schedule as it is now", async () => {
    const started = { ...soon, state: 'live' as const };
    reply = (method) =>
      method === 'GET'
        ? { status: 200, body: { scheduled: [requests.length > 1 ? started : soon] } }
        : { status: 409, body: { error: { code: 'CONFLICT', message: 'This broadcast has already started or ended.' } } };
    await loadSchedules(projectId, client());
    expect(await cancelSchedule(projectId, soon.id, client())).toBe(false);
    expect(useToastStore.getState().toasts.at(-1)).toMatchObject({
      kind: 'error',
      title: 'The broadcast could not be cancelled',
      description: 'This broadcast has already started or ended.',
    });
    expect(useSchedulesStore.getState()).toMatchObject({ scheduled: [started], cancelling: null });
  });

  it('lists a broadcast scheduled from a video at once, soonest first', async () => {
    const made = schedule('b3', 'scheduled', '2099-01-01T20:00:00.000Z');
    reply = (method) => (method === 'GET' ? { status: 200, body: { scheduled: [soon, later] } } : { status: 201, body: made });
    await loadSchedules(projectId, client());
    expect(await scheduleVideo(projectId, made.uploadId, 'show.mp4', '2099-01-01T21:00', client())).toEqual(made);
    expect(useSchedulesStore.getState().scheduled.map((s) => s.id)).toEqual([soon.id, made.id, later.id]);
  });
});
