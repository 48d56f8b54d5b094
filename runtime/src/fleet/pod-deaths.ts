import { CoreV1Api, makeInformer, type Informer, type KubeConfig, type V1Pod } from '@kubernetes/client-node';
import type { Logger } from '../logger.ts';
import type { WorkerDeaths } from './worker-deaths.ts';

export interface PodDeathWatchOptions {
  kubeConfig: KubeConfig;
  namespace: string;
  /** The media-worker pods (the Deployment's selector), e.g. `app.kubernetes.io/name=onair-media-worker`. */
  labelSelector: string;
  deaths: WorkerDeaths;
  logger: Logger;
  /** After the watch failed (API down, RBAC missing), how long before it starts again. */
  restartDelayMs?: number;
  /** Told of every notice sent, with the sessions it released (the load harness times them). */
  onNotice?: (workerId: string, released: string[]) => void;
}

/**
 * The Kubernetes side of the death notice (issue 54): media workers run with WORKER_ID equal to
 * their pod's name (k8s/base/media-worker.yaml), so a pod Kubernetes reports gone is a worker dead
 * for certain, and its sessions are released at once (WorkerDeaths) instead of after their locks.
 *
 * Gone means: the pod object was deleted (the kubelet confirmed its containers stopped; a pod only
 * marked for deletion is still draining and keeps its sessions), also when that is seen only on a
 * re-list after the watch was down; or the pod ended (phase Failed or Succeeded, as after an
 * eviction) and no container of it runs. A container restarted inside a live pod keeps the pod's
 * name, so its worker id: that death is left to the lock, which the restarted worker cannot hold.
 *
 * Imported on its own (@onair/runtime/pod-deaths): the Kubernetes client is large, and only the
 * api and the load harness watch pods.
 *
 * The watch is client-node's informer (list, then watch from the list's resourceVersion, re-listed
 * after a 410).
 */
export class PodDeathWatch {
  private informer: Informer<V1Pod> | undefined;
  private stopped = false;
  private restartTimer: NodeJS.Timeout | undefined;
  /** Pods already told about (a deleted pod can also have ended first). */
  private readonly noticed = new Set<string>();

  constructor(private readonly options: PodDeathWatchOptions) {}

  async start(): Promise<void> {
    const { kubeConfig, namespace, labelSelector, logger } = this.options;
    const core = kubeConfig.makeApiClient(CoreV1Api);
    const informer = makeInformer<V1Pod>(
      kubeConfig,
      `/api/v1/namespaces/${namespace}/pods`,
      () => core.listNamespacedPod({ namespace, labelSelector }),
      labelSelector,
    );
    this.informer = informer;
    informer.on('delete', (pod) => this.gone(pod, 'pod deleted'));
    informer.on('update', (pod) => {
      if (ended(pod)) this.gone(pod, `pod ${pod.status?.phase}`);
    });
    informer.on('error', (err: unknown) => {
      // Stopping aborts the watch's request, which the informer reports as an error.
      if (this.stopped) return;
      logger.warn({ err: (err as Error | undefined)?.message }, 'media-worker pod watch failed; starting again');
      this.restartTimer = setTimeout(() => {
        if (!this.stopped) informer.start().catch(() => undefined);
      }, this.options.restartDelayMs ?? 5000);
    });
    await informer.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    await this.informer?.stop();
  }

  private gone(pod: V1Pod, cause: string): void {
    const name = pod.metadata?.name;
    if (!name || this.noticed.has(name)) return;
    this.noticed.add(name);
    const { deaths, logger } = this.options;
    deaths.workerDied(name, cause).then(
      (released) => {
        logger.info({ workerId: name, cause, released: released.length }, 'media worker gone: its sessions handed over at once');
        this.options.onNotice?.(name, released);
      },
      (err: unknown) => logger.warn({ workerId: name, err: (err as Error).message }, 'death notice not sent; the sessions wait for their locks'),
    );
  }
}

/** A pod that ended for good: it does not run again, and none of its containers runs now. */
function ended(pod: V1Pod): boolean {
  const phase = pod.status?.phase;
  if (phase !== 'Failed' && phase !== 'Succeeded') return false;
  return (pod.status?.containerStatuses ?? []).every((c) => !c.state?.running);
}
