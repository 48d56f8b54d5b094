import { renderToString } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { TooltipProvider } from '../components/Tooltip.tsx';
import { routes } from './routes.tsx';

/** Renders the app at a path the way the browser would on first paint (effects do not run). */
function renderAt(path: string): string {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  return renderToString(
    <TooltipProvider>
      <RouterProvider router={router} />
    </TooltipProvider>,
  );
}

describe('routes', () => {
  it('shows the studio home at /, saying the projects are loading before they are', () => {
    const html = renderAt('/');
    expect(html).toContain('Loading your projects…');
    expect(html).not.toContain('No projects yet');
    expect(html).toContain('Server status: Checking');
    expect(html).toContain('aria-label="Account menu"');
  });

  it('lays out the studio with scenes, a 16:9 program and the four side panel tabs', () => {
    const html = renderAt('/studio/project-42');
    // The header waits for the project's name; it never shows the id.
    expect(html).not.toContain('project-42');
    expect(html).toContain('No scenes yet');
    expect(html).toContain('--canvas-ratio:1.7777');
    const tabs = [...html.matchAll(/role="tab"[^>]*>([^<]+)</g)].map((match) => match[1]);
    expect(tabs).toEqual(['Platform Chat', 'Event List', 'Guests', 'Guest Chat']);
    // Spec §2: Platform Chat is the tab that opens first.
    expect(html).toMatch(/aria-selected="true"[^>]*>Platform Chat</);
  });

  it.each([
    ['/guest/', 'This guest link is incomplete'],
    ['/guest/anything/deeper', 'This guest link is incomplete'],
    ['/guest/5f2b6c1e-8a4d-4b7e-9c3f-2d1e0a9b8c7d?guestToken=x.y', 'Checking your guest link…'],
    ['/login', 'Sign in to OnAir'],
    ['/admin', 'Operators&#x27; dashboard'],
    ['/no/such/page', 'Page not found'],
    ['/studio', 'Page not found'],
  ])('renders %s', (path, text) => {
    expect(renderAt(path)).toContain(text);
  });
});
