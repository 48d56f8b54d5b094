import type { Redis } from 'ioredis';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import { ProjectAccess } from '../access/project-access.ts';
import { documentLimits, type ApiConfig } from '../config.ts';
import { Countdowns } from './countdowns.ts';
import { SceneService } from './scene-service.ts';
import { ownPageUrls } from '../overlays/own-page-urls.ts';

/**
 * The api's countdown sweep on a timer (every COUNTDOWN_SWEEP_MS); close it on shutdown. Its
 * scene service is its own, as the broadcast and ingest watches have theirs.
 */
export function startCountdownWatch(deps: { config: ApiConfig; db: Db; redis: Redis; logger: Logger; countdowns?: Countdowns }): { close(): void } {
  const countdowns = deps.countdowns ?? new Countdowns(deps);
  const scenes = new SceneService(deps.db, deps.redis, deps.logger, new ProjectAccess(deps.db, deps.logger), documentLimits(deps.config), ownPageUrls(deps.config).trusted, countdowns);
  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    countdowns
      .sweep(scenes)
      .catch((err: unknown) => deps.logger.warn({ err: (err as Error).message }, 'countdown sweep failed'))
      .finally(() => (sweeping = false));
  }, deps.config.COUNTDOWN_SWEEP_MS);
  timer.unref();
  return { close: () => clearInterval(timer) };
}
