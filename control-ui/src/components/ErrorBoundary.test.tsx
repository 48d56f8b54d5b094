import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ErrorBoundary } from './ErrorBoundary.tsx';

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
  });
});
