import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { Logger } from '@onair/runtime';
import { FleetController } from './fleet-controller.ts';
import type { LoadHistory } from './load-history.ts';
import { loadKubeConfig } from './scaler/kube-config.ts';
import type { ScalerConfig } from './scaler/config.ts';
import { MediaScaler } from './scaler/media-scaler.ts';
import type { SessionQueueStats } from './session-queue-stats.ts';
import type { WorkerRegistry } from './worker-registry.ts';

/** The api's fleet loop from its configuration: load sampling always, the scaler where it is switched on. */
export function createFleetController(
  deps: { config: ScalerConfig; redis: Redis; logger: Logger; workers: WorkerRegistry; sessionQueue: SessionQueueStats; loadHistory: LoadHistory },
  env: NodeJS.ProcessEnv = process.env,
): FleetController {
  const { config, logger } = deps;
  const scaler = config.SCALER_ENABLED
    ? new MediaScaler({
        kubeConfig: loadKubeConfig(env),
        namespace: config.SCALER_NAMESPACE,
        deployment: config.SCALER_DEPLOYMENT,
        logger: logger.child({ part: 'scaler' }),
        policy: {
          minReplicas: config.SCALER_MIN_REPLICAS,
          maxReplicas: config.SCALER_MAX_REPLICAS,
          sessionCores: config.SCALER_SESSION_CORES,
          workerCores: config.SCALER_WORKER_CORES,
          spareWorkers: config.SCALER_SPARE_WORKERS,
          scaleDownCooldownMs: config.SCALER_SCALE_DOWN_COOLDOWN_MS,
          scaleDownStep: config.SCALER_SCALE_DOWN_STEP,
        },
      })
    : undefined;
  return new FleetController({
    redis: deps.redis,
    workers: deps.workers,
    queue: deps.sessionQueue,
    history: deps.loadHistory,
    logger: logger.child({ part: 'fleet' }),
    tickMs: config.FLEET_TICK_MS,
    holderId: env.POD_NAME ?? `${hostname()}-${process.pid}`,
    ...(scaler ? { scaler } : {}),
  });
}
