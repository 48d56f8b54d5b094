import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetClientErrorReports } from '../actions/client-errors.ts';
import { ErrorBoundary } from './ErrorBoundary.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  resetClientErrorReports();
});

// React runs error boundaries only in the browser; here the boundary's two halves are checked
// directly: the state it derives from an error, and what it renders in each state.
describe('ErrorBoundary', () => {
  it('renders its children while nothing has failed', () => {
    expect(renderToString(<ErrorBoundary>all good</ErrorBoundary>)).toContain('all good');
  });

  it('replaces the children with the spec’s message after an error', () => {
    const boundary = new ErrorBoundary({ children: 'all good' });
    boundary.state = ErrorBoundary.getDerivedStateFromError(new Error('boom'));
    const html = renderToString(<>{boundary.render()}</>);
    expect(html).toContain('An error has occurred');
    expect(html).not.toContain('all good');
    // Partner spec §8: an error code to quote, the build and release, Contact support and Reload.
    expect(html).toContain(boundary.state.code!);
    expect(boundary.state.code).toMatch(/^[0-9A-F]{8}$/);
    expect(html).toContain(`<dd>${__ONAIR_RELEASE__}</dd>`);
    expect(html).toContain('Build');
    expect(html).toContain('Contact support');
    expect(html).toContain('Reload');
  });

  it('reports what it caught to the api: code, scrubbed message and stack, release and the path without ids or query', async () => {
    const sent: { url: string; init: RequestInit }[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      return new Response(JSON.stringify({ received: true }), { status: 202, headers: { 'content-type': 'application/json' } });
    });
    vi.stubGlobal('window', { location: { pathname: '/studio/0b7c6a52-3f0e-4c43-9a8e-2b1d5e4f6a7b', search: '?token=secret' } });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const boundary = new ErrorBoundary({ children: 'all good' });
    const error = new TypeError('no layer for ana@example.com');
    error.stack = 'TypeError: no layer\n    at Layer (http://127.0.0.1/assets/index-B2kdL9xQ.js?v=abc123def:3:7)';
    boundary.state = ErrorBoundary.getDerivedStateFromError(error);
    boundary.componentDidCatch(error, { componentStack: '' });
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.url).toBe('/api/v1/client-errors');
    expect(sent[0]!.init.method).toBe('POST');
    expect(JSON.parse(sent[0]!.init.body as string)).toEqual({
      code: boundary.state.code,
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
      const boundary = new ErrorBoundary({ children: 'x' });
      boundary.state = ErrorBoundary.getDerivedStateFromError(new Error(`boom ${i}`));
      boundary.componentDidCatch(new Error(`boom ${i}`), { componentStack: '' });
    }
    await vi.waitFor(() => expect(calls).toBe(5));
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toBe(5);
  });
});
