import { describe, expect, it } from 'vitest';
import { DEVELOPMENT_FAVICON, PRODUCTION_FAVICON, useDevelopmentFavicon } from './dev-favicon.ts';

describe('useDevelopmentFavicon', () => {
  it('swaps the production favicon for the development one', () => {
    const html = `<head><link rel="icon" type="image/svg+xml" href="${PRODUCTION_FAVICON}" /></head>`;
    const out = useDevelopmentFavicon(html);
    expect(out).toContain(`href="${DEVELOPMENT_FAVICON}"`);
    expect(out).not.toContain(`href="${PRODUCTION_FAVICON}"`);
  });

  it('refuses html without the production favicon link', () => {
    expect(() => useDevelopmentFavicon('<head></head>')).toThrow(/no favicon link/);
  });
});
