import react from '@vitejs/plugin-react';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';
import { devFavicon } from './build/dev-favicon.ts';

// The api owns every one of these paths; in development Vite serves the UI and forwards them,
// so the browser sees one origin exactly as it does when the api serves the built UI.
const API_ORIGIN = 'http://127.0.0.1:8080';

/** The build and release the error page names (partner spec §8): ONAIR_BUILD / ONAIR_RELEASE, else the commit and the version. */
function buildInfo(): { build: string; release: string } {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    // Built outside a git checkout (an image build): ONAIR_BUILD says which.
  }
  const version = (JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return { build: process.env.ONAIR_BUILD ?? commit, release: process.env.ONAIR_RELEASE ?? version };
}
const info = buildInfo();

export default defineConfig({
  plugins: [react(), devFavicon()],
  define: {
    __ONAIR_BUILD__: JSON.stringify(info.build),
    __ONAIR_RELEASE__: JSON.stringify(info.release),
  },
  server: {
    proxy: {
      // Sign-in refuses requests from origins other than the api's own (CSRF); through this
      // local proxy the page's origin is the dev server's, so present the api's.
      '/api': { target: API_ORIGIN, headers: { origin: API_ORIGIN } },
      '/ws': { target: API_ORIGIN, ws: true },
      '/healthz': API_ORIGIN,
      '/readyz': API_ORIGIN,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change far less often than the app: separate chunks stay in browser caches
        // (the api serves assets as immutable) across releases that touch only our code.
        codeSplitting: {
          groups: [
            // Loaded only when a Watch player opens (a dynamic import), not with every page.
            { name: 'hls', test: /node_modules[\\/]hls\.js[\\/]/, priority: 3 },
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 2 },
            { name: 'vendor', test: /node_modules[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
});
