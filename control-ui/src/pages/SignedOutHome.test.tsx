import { renderToString } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { SignedOutHome } from './SignedOutHome.tsx';

describe('the signed-out home page', () => {
  it('says what OnAir is and offers sign-in directly', () => {
    const router = createMemoryRouter([{ path: '/', element: <SignedOutHome /> }], { initialEntries: ['/'] });
    const html = renderToString(<RouterProvider router={router} />);
    expect(html).toContain('<h1');
    expect(html).toContain('streaming studio in a browser tab');
    expect(html).toMatch(/<a[^>]*href="\/login"[^>]*>Sign in<\/a>/);
    expect(html).toContain('Signing in with your e-mail creates your account');
    expect(html).not.toContain('No projects yet');
  });
});
