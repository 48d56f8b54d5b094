import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from './ErrorBoundary.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
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

  it('tells onError what it caught, with the code the page shows', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const caught: [Error, string][] = [];
    const boundary = new ErrorBoundary({ children: 'all good', onError: (error, code) => caught.push([error, code]) });
    const error = new Error('boom');
    boundary.state = ErrorBoundary.getDerivedStateFromError(error);
    boundary.componentDidCatch(error, { componentStack: '' });
    expect(caught).toEqual([[error, boundary.state.code]]);
  });
});
