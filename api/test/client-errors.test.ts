// The web app's error boundaries report what they caught: the route validates the report with
// protocol's schema, scrubs it again, logs it at warn as `client_error`, counts it, and refuses a
// flood from one address.
import { randomInt } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStudioApi, type StudioApi } from './helpers/studio-api.ts';

const logLines: Record<string, unknown>[] = [];
let api: StudioApi;

beforeAll(async () => {
  const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) });
  api = await startStudioApi({ env: { CLIENT_ERRORS_PER_MINUTE: '3' }, logger });
});
afterAll(async () => {
  await api?.close();
});

const newIp = () => `10.${randomInt(255)}.${randomInt(255)}.${randomInt(1, 255)}`;

async function report(body: unknown, ip: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${api.url}/api/v1/client-errors`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const valid = {
  code: '0A1B2C3D',
  message: 'Cannot read properties of undefined (reading "name") for ana@example.com',
  stack: 'TypeError: x\n    at ProjectCard (http://127.0.0.1/assets/index-B2kdL9xQ.js?v=abc123def:10:5)',
  release: '2026.12.07',
  route: '/studio/0b7c6a52-3f0e-4c43-9a8e-2b1d5e4f6a7b',
};

describe('POST /api/v1/client-errors', () => {
  it('logs a report at warn as client_error, scrubbed, without signing in, and counts it', async () => {
    const answer = await report(valid, newIp());
    expect(answer).toEqual({ status: 202, body: { received: true } });
    const line = logLines.find((l) => l.event === 'client_error' && l.errorCode === valid.code);
    expect(line).toMatchObject({
      level: 40,
      release: '2026.12.07',
      route: '/studio/:id',
      message: 'Cannot read properties of undefined (reading "name") for [email]',
      stack: 'TypeError: x\n    at ProjectCard (http://127.0.0.1/assets/index-B2kdL9xQ.js:10:5)',
    });
    const metrics = await (await fetch(`${api.url}/metrics`)).text();
    expect(metrics).toMatch(/^onair_api_client_errors_total [1-9]/m);
  });

  it('refuses what is not a report: a route with a query, personal fields, a missing message', async () => {
    const ip = newIp();
    for (const body of [{ ...valid, route: '/guest/x?token=abc' }, { ...valid, email: 'ana@example.com' }, { ...valid, message: '' }, { route: '/' }]) {
      const answer = await report(body, ip);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    }
  });

  it('answers RATE_LIMITED past CLIENT_ERRORS_PER_MINUTE reports from one address; another address is not affected', async () => {
    const ip = newIp();
    for (let i = 0; i < 3; i++) expect((await report(valid, ip)).status).toBe(202);
    const refused = await report(valid, ip);
    expect(refused).toMatchObject({
      status: 429,
      body: { error: { code: 'RATE_LIMITED', message: 'Too many error reports from your address. Wait a minute.' } },
    });
    expect((await report(valid, newIp())).status).toBe(202);
  });
});
