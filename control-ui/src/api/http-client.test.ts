import { afterEach, describe, expect, it } from 'vitest';
import { readinessSchema } from '@onair/protocol';
import { sendJson, startTestServer, type TestServer } from '../test/http-server.ts';
import { createHttpClient } from './http-client.ts';
import { NetworkError, RequestAbortedError, RequestFailedError, UnauthorizedError, UnexpectedResponseError } from './http-errors.ts';

const readyBody = {
  ready: true,
  checks: {
    database: { ok: true },
    redis: { ok: true },
    mediaWorkers: { ok: true, count: 1 },
    renderWorkers: { ok: true, count: 2 },
  },
};

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('createHttpClient().getJson', () => {
  it('returns the body once it matches the schema', async () => {
    server = await startTestServer((_req, res) => sendJson(res, 200, readyBody));
    const client = createHttpClient({ baseUrl: server.baseUrl });
    await expect(client.getJson('/readyz', { response: readinessSchema })).resolves.toEqual(readyBody);
  });

  it('accepts a listed non-2xx status whose body follows the schema', async () => {
    const notReady = { ...readyBody, ready: false };
    server = await startTestServer((_req, res) => sendJson(res, 503, notReady));
    const client = createHttpClient({ baseUrl: server.baseUrl });
    await expect(client.getJson('/readyz', { response: readinessSchema, alsoAccept: [503] })).resolves.toEqual(notReady);
  });

  it('turns an unlisted failure status into RequestFailedError carrying the body', async () => {
    server = await startTestServer((_req, res) => sendJson(res, 503, { error: 'down' }));
    const client = createHttpClient({ baseUrl: server.baseUrl });
    const error = await client.getJson('/readyz', { response: readinessSchema }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(RequestFailedError);
    expect(error).toMatchObject({ status: 503, body: { error: 'down' } });
  });

  it('turns 401 into UnauthorizedError', async () => {
    server = await startTestServer((_req, res) => sendJson(res, 401, { code: 'unauthenticated' }));
    const client = createHttpClient({ baseUrl: server.baseUrl });
    await expect(client.getJson('/x', { response: readinessSchema })).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('refuses a body that breaks the contract', async () => {
    server = await startTestServer((_req, res) => sendJson(res, 200, { ready: 'yes' }));
    const client = createHttpClient({ baseUrl: server.baseUrl });
    await expect(client.getJson('/readyz', { response: readinessSchema })).rejects.toBeInstanceOf(UnexpectedResponseError);
  });

  it('gives up after the timeout with the spec’s 408 error', async () => {
    // Never answers: only the client's timeout can end the request.
    server = await startTestServer(() => {});
    const client = createHttpClient({ baseUrl: server.baseUrl, timeoutMs: 100 });
    const error = await client.getJson('/readyz', { response: readinessSchema }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(error).toMatchObject({ status: 408, message: 'Request timed out' });
  });

  it('reports a server that is not there as a NetworkError', async () => {
    server = await startTestServer(() => {});
    const { baseUrl } = server;
    await server.close();
    server = undefined;
    const client = createHttpClient({ baseUrl });
    await expect(client.getJson('/readyz', { response: readinessSchema })).rejects.toBeInstanceOf(NetworkError);
  });
});
