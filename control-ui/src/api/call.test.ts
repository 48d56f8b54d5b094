import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  defineEndpoint,
  deleteCurrentUserEndpoint,
  deleteRecordingEndpoint,
  getProjectEndpoint,
  listProjectsEndpoint,
  readyzEndpoint,
  renameProjectEndpoint,
  type ProjectDetails,
} from '@onair/protocol';
import { sendJson, startTestServer, type TestServer } from '../test/http-server.ts';
import { call, pathOf, type PathParamNames } from './call.ts';
import { createHttpClient } from './http-client.ts';
import { RequestFailedError, UnexpectedResponseError } from './http-errors.ts';

const projectId = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const project: ProjectDetails = { id: projectId, name: 'Morning show', resolution: '1080p', version: 3, createdAt: '2026-01-02T03:04:05.000Z', role: 'host' };
const readyBody = {
  ready: false,
  checks: { database: { ok: true }, redis: { ok: true }, mediaWorkers: { ok: false, count: 0 }, renderWorkers: { ok: true, count: 1 } },
};

interface Seen {
  method: string | undefined;
  url: string | undefined;
  contentType: string | undefined;
  body: string;
}

/** A real server that answers `answer` and remembers the request it got. */
async function serve(status: number, answer: unknown): Promise<{ client: ReturnType<typeof createHttpClient>; seen: Promise<Seen> }> {
  let resolveSeen: (seen: Seen) => void = () => {};
  const seen = new Promise<Seen>((resolve) => (resolveSeen = resolve));
  server = await startTestServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      resolveSeen({ method: req.method, url: req.url, contentType: req.headers['content-type'], body });
      sendJson(res, status, answer);
    });
  });
  return { client: createHttpClient({ baseUrl: server.baseUrl }), seen };
}

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('call', () => {
  it('fills the path parameters (encoded), uses the GET of the contract and returns the parsed answer', async () => {
    const { client, seen } = await serve(200, project);
    const answer = await call(getProjectEndpoint, { params: { projectId } }, client);
    expect(answer).toEqual(project);
    expect(await seen).toMatchObject({ method: 'GET', url: `/api/v1/projects/${projectId}`, body: '' });
    expectTypeOf(answer).toEqualTypeOf<ProjectDetails>();
  });

  it('sends the body as JSON with the method the contract names', async () => {
    const { client, seen } = await serve(200, { ...project, name: 'Evening show' });
    await expect(call(renameProjectEndpoint, { params: { projectId }, body: { name: 'Evening show' } }, client)).resolves.toMatchObject({
      name: 'Evening show',
    });
    expect(await seen).toEqual({ method: 'PATCH', url: `/api/v1/projects/${projectId}`, contentType: 'application/json', body: '{"name":"Evening show"}' });
  });

  it('puts the query after the path and accepts the statuses the contract lists', async () => {
    const { client, seen } = await serve(503, readyBody);
    await expect(call(readyzEndpoint, { query: { scope: 'api' } }, client)).resolves.toEqual(readyBody);
    expect(await seen).toMatchObject({ method: 'GET', url: '/readyz?scope=api' });
  });

  it('needs no input for an endpoint that takes none', async () => {
    const { client, seen } = await serve(200, { projects: [] });
    await expect(call(listProjectsEndpoint, {}, client)).resolves.toEqual({ projects: [] });
    expect(await seen).toMatchObject({ method: 'GET', url: '/api/v1/projects' });
  });

  it('reads the empty answer of a 204 as the nothing its contract names (null or undefined)', async () => {
    server = await startTestServer((_req, res) => res.writeHead(204).end());
    const client = createHttpClient({ baseUrl: server.baseUrl });
    await expect(call(deleteCurrentUserEndpoint, {}, client)).resolves.toBeNull();
    await expect(call(deleteRecordingEndpoint, { params: { projectId, recordingId: projectId } }, client)).resolves.toBeUndefined();
  });

  it('keeps the client’s errors: an unlisted failure status and an answer that breaks the contract', async () => {
    const failing = await serve(404, { error: 'NOT_FOUND' });
    await expect(call(getProjectEndpoint, { params: { projectId } }, failing.client)).rejects.toBeInstanceOf(RequestFailedError);
    await server?.close();
    const wrong = await serve(200, { ...project, version: 'three' });
    await expect(call(getProjectEndpoint, { params: { projectId } }, wrong.client)).rejects.toBeInstanceOf(UnexpectedResponseError);
  });

  it('leaves undefined query fields out and encodes the rest', () => {
    expect(pathOf({ path: '/a/:id/b' }, { params: { id: 'x y/z' }, query: { q: 'a&b', none: undefined, n: 2 } })).toBe('/a/x%20y%2Fz/b?q=a%26b&n=2');
    expect(pathOf({ path: '/a' }, { query: {} })).toBe('/a');
  });

  it('refuses at compile time what the contract does not allow', () => {
    // Type-only checks (tsc runs over this file); the calls are never made.
    const neverCalled = (): void => {
      // @ts-expect-error the contract's body is { name: string }, not { title }.
      void call(renameProjectEndpoint, { params: { projectId }, body: { title: 'Evening show' } });
      // @ts-expect-error the body is required by the contract.
      void call(renameProjectEndpoint, { params: { projectId } });
      // @ts-expect-error a GET has no body in its contract.
      void call(getProjectEndpoint, { params: { projectId }, body: { name: 'x' } });
      // @ts-expect-error the path's :projectId must be given.
      void call(getProjectEndpoint, {});
      // @ts-expect-error the query's scope is one of the contract's values.
      void call(readyzEndpoint, { query: { scope: 'everything' } });
    };
    expect(neverCalled).toBeTypeOf('function');
    // A contract without a params schema: the names come from its path.
    const pathOnly = defineEndpoint({
      id: 'pathOnly',
      method: 'delete',
      path: '/things/:thingId/parts/:partId',
      summary: '',
      tag: 'test',
      access: 'user',
      response: z.null(),
    });
    const pathOnlyNeverCalled = (): void => {
      void call(pathOnly, { params: { thingId: 'a', partId: 'b' } });
      // @ts-expect-error partId is part of the path.
      void call(pathOnly, { params: { thingId: 'a' } });
    };
    expect(pathOnlyNeverCalled).toBeTypeOf('function');
    expectTypeOf<PathParamNames<'/api/v1/partner/channels/:channelId/overlays/:overlayId'>>().toEqualTypeOf<'channelId' | 'overlayId'>();
    expectTypeOf<PathParamNames<'/api/v1/projects'>>().toEqualTypeOf<never>();
  });
});
