import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { Router } from 'express';
import type { Logger } from '@onair/runtime';

/**
 * Serves the built control-ui: hashed assets with a long cache, and index.html for every other
 * GET outside the API so client-side routes survive a reload.
 */
export function staticUi(distDir: string | undefined, logger: Logger): Router {
  const router = Router();
  if (!distDir || !existsSync(join(distDir, 'index.html'))) {
    logger.warn({ distDir }, 'control-ui is not built; the api serves no UI (run ./onair start, which builds it)');
    return router;
  }
  router.use('/assets', express.static(join(distDir, 'assets'), { immutable: true, maxAge: '1y', fallthrough: false }));
  router.use(express.static(distDir, { index: false, maxAge: '1h' }));
  router.get(/^\/(?!api\/|ws$|metrics$|healthz$|readyz$).*/, (_req, res) => {
    res.setHeader('cache-control', 'no-cache');
    res.sendFile(join(distDir, 'index.html'));
  });
  return router;
}
