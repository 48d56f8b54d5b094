import type { ApiConfig } from '../config.ts';
import type { Logger } from '@onair/runtime';
import type { Countdowns } from './countdowns.ts';
import type { SceneService } from './scene-service.ts';

/** The api's countdown sweep on a timer (every COUNTDOWN_SWEEP_MS); close it on shutdown. */
export function startCountdownWatch(deps: { config: ApiConfig; logger: Logger; countdowns: Countdowns; scenes: SceneService }): { close(): void } {
  const { countdowns, scenes } = deps;
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
