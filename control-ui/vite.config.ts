import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { devFavicon } from './build/dev-favicon.ts';

// The api owns every one of these paths; in development Vite serves the UI and forwards them,
// so the browser sees one origin exactly as it does when the api serves the built UI.
const API_ORIGIN = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), devFavicon()],
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
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 2 },
            { name: 'vendor', test: /node_modules[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
});
