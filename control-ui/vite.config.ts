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
      '/api': API_ORIGIN,
      '/ws': { target: API_ORIGIN, ws: true },
      '/healthz': API_ORIGIN,
      '/readyz': API_ORIGIN,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
});
