import type { Plugin } from 'vite';

export const PRODUCTION_FAVICON = '/favicon.svg';
export const DEVELOPMENT_FAVICON = '/favicon-dev.svg';

/**
 * Points index.html at the development favicon unless Vite runs in production mode (spec §2:
 * development builds show a different favicon), so a tab of a dev server or a development build
 * is never mistaken for the real studio.
 */
export function devFavicon(): Plugin {
  let mode = 'production';
  return {
    name: 'onair-dev-favicon',
    configResolved(config) {
      mode = config.mode;
    },
    transformIndexHtml(html) {
      return mode === 'production' ? html : useDevelopmentFavicon(html);
    },
  };
}

export function useDevelopmentFavicon(html: string): string {
  const productionLink = `href="${PRODUCTION_FAVICON}"`;
  // Fail the build rather than ship a development build that silently looks like production.
  if (!html.includes(productionLink)) {
    throw new Error(`index.html has no favicon link ${productionLink} to replace`);
  }
  return html.replace(productionLink, `href="${DEVELOPMENT_FAVICON}"`);
}
