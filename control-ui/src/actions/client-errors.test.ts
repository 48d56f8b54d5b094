import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportRenderingError, resetClientErrorReports } from './client-errors.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  resetClientErrorReports();
});

// The app's error boundary hands what it caught to reportRenderingError (App.tsx): what reaches the api.
describe('client error reports', () => {
  it('reports what it caught to the api: code, scrubbed message and stack, release and the path without ids or query', async () => {
    const sent: { url: string; init: RequestInit }[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      return new Response(JSON.stringify({ received: true }), { status: 202, headers: { 'content-type': 'application/json' } });
    });
    vi.stubGlobal('window', { location: { pathname: '/studio/0b7c6a52-3f0e-4c43-9a8e-2b1d5e4f6a7b', search: '?token=secret' } });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const error = new TypeError('no layer for ana@example.com');
    error.stack = 'TypeError: no layer\n    at Layer (http://127.0.0.1/assets/index-B2kdL9xQ.js?v=abc123def:3:7)';
    void reportRenderingError(error, '0A1B2C3D');
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.url).toBe('/api/v1/client-errors');
    expect(sent[0]!.init.method).toBe('POST');
    expect(JSON.parse(sent[0]!.init.body as string)).toEqual({
      code: '0A1B2C3D',
      message: 'TypeError: no layer for [email]',
      stack: 'TypeError: no layer\n    at Layer (http://127.0.0.1/assets/index-B2kdL9xQ.js:3:7)',
      release: __ONAIR_RELEASE__,
      route: '/studio/:id',
    });
  });

  it('keeps quiet when the report cannot be sent, and stops after a few reports from one page', async () => {
    let calls = 0;
    vi.stubGlobal('fetch', async () => {
      calls += 1;
      throw new TypeError('Failed to fetch');
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    for (let i = 0; i < 8; i++) {
      void reportRenderingError(new Error(`boom ${i}`), `0000000${i}`);
    }
    await vi.waitFor(() => expect(calls).toBe(5));
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toBe(5);
  });
});
