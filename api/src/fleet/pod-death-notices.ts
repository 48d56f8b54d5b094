import type { Redis } from 'ioredis';
import { WorkerDeaths, type Logger } from '@onair/runtime';
import type { Running } from '../module.ts';
import { loadKubeConfig } from './scaler/kube-config.ts';
import type { ScalerConfig } from './scaler/config.ts';

/**
 * Where the api talks to Kubernetes (the scaler is switched on), it also watches the media-worker
 * pods: one reported gone is a worker dead for certain, whose sessions are released at once to the
 * standby workers instead of after their locks lapse (issue 54). Every replica watches: a notice is
 * safe to send twice (a lease moves only while the dead worker's token holds it), and no leader
 * hand-over can leave a death unseen. Off on one machine, where the supervisor sends the notice.
 */
export async function startPodDeathNotices(
  deps: { config: ScalerConfig; redis: Redis; logger: Logger },
  env: NodeJS.ProcessEnv = process.env,
): Promise<Running> {
  if (!deps.config.SCALER_ENABLED) return { close: () => undefined };
  // Imported only here: the Kubernetes client is large, and one machine never needs it.
  const { PodDeathWatch } = await import('@onair/runtime/pod-deaths');
  const deaths = new WorkerDeaths(deps.redis);
  const watch = new PodDeathWatch({
    kubeConfig: loadKubeConfig(env),
    namespace: deps.config.SCALER_NAMESPACE,
    labelSelector: deps.config.SCALER_MEDIA_POD_SELECTOR,
    deaths,
    logger: deps.logger.child({ part: 'pod-deaths' }),
  });
  // The API can be down or the role missing at start: the watch starts again by itself.
  watch.start().catch((err: unknown) => deps.logger.warn({ err: (err as Error).message }, 'media-worker pod watch not started'));
  return {
    close: async () => {
      await watch.stop();
      await deaths.close();
    },
  };
}
