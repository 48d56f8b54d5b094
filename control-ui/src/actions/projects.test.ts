import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProjectDetails, ProjectSummary } from '@onair/protocol';
import type { StudioSocketHandlers } from '../api/studio-socket.ts';
import { createHttpClient } from '../api/http-client.ts';
import { initialStudioState, useProjectsStore, useStudioStore, useToastStore } from '../stores/index.ts';
import { sendJson, startTestServer, type TestServer } from '../test/http-server.ts';
import { followProjectList, renameOpenProject } from './projects.ts';
import { receiveProjectRename } from './studio-updates.ts';

const project: ProjectDetails = {
  id: '00000000-0000-4000-8000-0000000000aa',
  name: 'Friday stream',
  resolution: '720p',
  version: 3,
  createdAt: '2026-01-01T00:00:00.000Z',
  role: 'host',
};

let server: TestServer | undefined;
let answer: { status: number; body: unknown };
let requests: { method: string; url: string; body: unknown }[];

beforeEach(async () => {
  useStudioStore.setState({ ...initialStudioState(), projectId: project.id, project });
  useToastStore.setState({ toasts: [] });
  requests = [];
  server = await startTestServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', body: raw ? JSON.parse(raw) : undefined });
      sendJson(res, answer.status, answer.body);
    });
  });
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const client = () => createHttpClient({ baseUrl: server?.baseUrl ?? '', timeoutMs: 2000 });

describe('renaming the open project', () => {
  it('renames through the api, trimmed, and keeps what the server answered', async () => {
    answer = { status: 200, body: { ...project, name: 'Saturday speedrun', version: 3 } };
    expect(await renameOpenProject('  Saturday speedrun ', client())).toBe(true);
    expect(requests).toEqual([{ method: 'PATCH', url: `/api/v1/projects/${project.id}`, body: { name: 'Saturday speedrun' } }]);
    expect(useStudioStore.getState().project?.name).toBe('Saturday speedrun');
  });

  it('puts the old name back and says why when the server refuses', async () => {
    answer = { status: 403, body: { error: { code: 'FORBIDDEN', message: 'Your role in this project (viewer) does not allow you to change the project.' } } };
    expect(await renameOpenProject('Mine now', client())).toBe(false);
    expect(useStudioStore.getState().project?.name).toBe('Friday stream');
    expect(useToastStore.getState().toasts).toEqual([
      expect.objectContaining({ kind: 'error', title: 'The project was not renamed', description: expect.stringContaining('does not allow you') }),
    ]);
  });

  it('refuses an empty name without asking the server, and sends nothing for an unchanged one', async () => {
    expect(await renameOpenProject('   ', client())).toBe(false);
    expect(await renameOpenProject('Friday stream', client())).toBe(true);
    expect(requests).toEqual([]);
    expect(useStudioStore.getState().project?.name).toBe('Friday stream');
  });

  it('follows a rename made in another studio, and ignores one of another project', () => {
    receiveProjectRename({ type: 'project.renamed', projectId: project.id, name: 'Renamed elsewhere' });
    expect(useStudioStore.getState().project?.name).toBe('Renamed elsewhere');
    receiveProjectRename({ type: 'project.renamed', projectId: '00000000-0000-4000-8000-0000000000bb', name: 'Not ours' });
    expect(useStudioStore.getState().project?.name).toBe('Renamed elsewhere');
  });
});

describe('the Projects list follows changes made in other tabs and devices (/ws projects.changed)', () => {
  const summary = ({ role: _role, ...rest }: ProjectDetails): ProjectSummary => rest;
  const made: ProjectSummary = { ...summary(project), id: '00000000-0000-4000-8000-0000000000bb', name: 'Made in another tab' };

  it('adds a project made elsewhere once, renames one renamed elsewhere, and reads the list again each time the socket is ready (first, and after a reconnect)', async () => {
    useProjectsStore.setState({ status: 'ready', projects: [summary(project)] });
    let handlers: StudioSocketHandlers | undefined;
    let closed = false;
    const stop = followProjectList(createHttpClient({ baseUrl: server!.baseUrl }), (h) => {
      handlers = h;
      return { send: () => undefined, close: () => void (closed = true) };
    });
    // Subscribed: the list is read again (a change made before the socket was ready reached nobody).
    answer = { status: 200, body: { projects: [summary(project)] } };
    handlers!.onOpen();
    handlers!.onMessage({ type: 'ready', userId: 'u1' });
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    requests.length = 0;
    handlers!.onMessage({ type: 'projects.changed', change: 'created', project: made });
    handlers!.onMessage({ type: 'projects.changed', change: 'created', project: made });
    expect(useProjectsStore.getState().projects.map((p) => p.name)).toEqual(['Made in another tab', 'Friday stream']);
    handlers!.onMessage({ type: 'projects.changed', change: 'renamed', project: { ...summary(project), name: 'Saturday stream' } });
    expect(useProjectsStore.getState().projects.map((p) => p.name)).toEqual(['Made in another tab', 'Saturday stream']);
    expect(requests).toEqual([]);

    // Back after a drop: what changed meanwhile is read from the api, without a loading state.
    answer = { status: 200, body: { projects: [{ ...made, name: 'Renamed while away' }, summary(project)] } };
    handlers!.onOpen();
    handlers!.onMessage({ type: 'ready', userId: 'u1' });
    await vi.waitFor(() => expect(useProjectsStore.getState().projects[0]?.name).toBe('Renamed while away'));
    expect(useProjectsStore.getState().status).toBe('ready');
    expect(requests).toMatchObject([{ method: 'GET', url: '/api/v1/projects' }]);
    stop();
    expect(closed).toBe(true);
  });
});
