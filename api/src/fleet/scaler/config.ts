import { z } from 'zod';
import { DECODED_SOURCE_CORES, FLEET_SAMPLE_INTERVAL_MS, SESSION_BASE_CORES } from '@onair/protocol';

/**
 * Environment of the media-worker scaler, merged into the api's config schema. The scaler runs
 * only where it is switched on and a Kubernetes API is reachable (in-cluster service account, or
 * KUBECONFIG); on one machine it stays off and the fleet loop only samples load.
 */
export const scalerConfigShape = {
  SCALER_ENABLED: z.stringbool().default(false),
  /** The namespace of the media-worker Deployment; the manifests set it from the pod's own. */
  SCALER_NAMESPACE: z.string().default('default'),
  SCALER_DEPLOYMENT: z.string().default('onair-media-worker'),
  /**
   * The media-worker pods (the Deployment's selector): where the scaler runs, a pod of these that
   * Kubernetes reports gone has its sessions released at once (PodDeathWatch, issue 54).
   */
  SCALER_MEDIA_POD_SELECTOR: z.string().min(1).default('app.kubernetes.io/name=onair-media-worker'),
  SCALER_MIN_REPLICAS: z.coerce.number().int().nonnegative().default(1),
  SCALER_MAX_REPLICAS: z.coerce.number().int().positive().default(20),
  /** Cores one session is assumed to cost when sizing: 720p with two live sources by default. */
  SCALER_SESSION_CORES: z.coerce
    .number()
    .positive()
    .default(SESSION_BASE_CORES['720p'] + 2 * DECODED_SOURCE_CORES),
  /** Cores of a media-worker pod that has not reported yet: its CPU request. */
  SCALER_WORKER_CORES: z.coerce.number().positive().default(4),
  SCALER_SPARE_WORKERS: z.coerce.number().int().nonnegative().default(1),
  SCALER_SCALE_DOWN_COOLDOWN_MS: z.coerce.number().int().nonnegative().default(300_000),
  SCALER_SCALE_DOWN_STEP: z.coerce.number().int().positive().default(1),
  /** How often the leading api replica samples the fleet and scales. */
  FLEET_TICK_MS: z.coerce.number().int().positive().default(FLEET_SAMPLE_INTERVAL_MS),
};

export type ScalerConfig = { [K in keyof typeof scalerConfigShape]: z.output<(typeof scalerConfigShape)[K]> };
