import { AppsV1Api, CoreV1Api, PatchStrategy, setHeaderOptions, type KubeConfig, type V1Pod } from '@kubernetes/client-node';
import type { WorkerHeartbeat } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { decideReplicas, type ScalingDecision, type ScalingMemory, type ScalingPolicy } from './scaling-policy.ts';

/** The annotation the ReplicaSet controller reads to choose which pods to delete first (lowest first). */
export const POD_DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';
/** Idle workers: removed first on a scale-down. */
export const IDLE_POD_DELETION_COST = -1000;
/** Per session held: a worker with more sessions is removed last. */
export const SESSION_POD_DELETION_COST = 1000;

export interface MediaScalerOptions {
  kubeConfig: KubeConfig;
  namespace: string;
  deployment: string;
  policy: ScalingPolicy;
  logger: Logger;
}

export interface FleetSnapshot {
  now: number;
  /** Sessions waiting for a worker (waiting + delayed). */
  queued: number;
  mediaWorkers: readonly WorkerHeartbeat[];
}

export interface ReconcileResult extends ScalingDecision {
  previousReplicas: number;
  /** Pods whose deletion cost was changed this tick, with the new cost. */
  annotated: { pod: string; cost: number }[];
}

/**
 * Sizes the media-worker Deployment through the Kubernetes API: its `scale` subresource for the
 * replica count, and a deletion-cost annotation on each pod so that the ReplicaSet removes idle
 * workers first. A worker's pod is found by name: media workers run with WORKER_ID (and so
 * hostname) equal to their pod name (k8s/base/media-worker.yaml).
 */
export class MediaScaler {
  private readonly apps: AppsV1Api;
  private readonly core: CoreV1Api;
  private memory: ScalingMemory = {};

  constructor(private readonly options: MediaScalerOptions) {
    this.apps = options.kubeConfig.makeApiClient(AppsV1Api);
    this.core = options.kubeConfig.makeApiClient(CoreV1Api);
  }

  /** One tick: annotate pods, then set the replica count. Deletion costs go first so a scale-down in the same tick already spares the busy pods. */
  async reconcile(snapshot: FleetSnapshot): Promise<ReconcileResult> {
    const { namespace, deployment } = this.options;
    const scale = await this.apps.readNamespacedDeploymentScale({ name: deployment, namespace });
    const replicas = scale.spec?.replicas ?? 0;
    const selector = scale.status?.selector;
    const annotated = selector ? await this.annotatePods(selector, snapshot.mediaWorkers) : [];

    const decision = decideReplicas(this.options.policy, { now: snapshot.now, replicas, queued: snapshot.queued, workers: snapshot.mediaWorkers }, this.memory);
    this.memory = decision.memory;
    if (decision.replicas !== replicas) {
      // A replace carrying the resourceVersion we read: if someone else changed the scale since,
      // the API answers 409 and the next tick decides again from the new figure.
      await this.apps.replaceNamespacedDeploymentScale({
        name: deployment,
        namespace,
        body: {
          apiVersion: 'autoscaling/v1',
          kind: 'Scale',
          metadata: { name: deployment, namespace, resourceVersion: scale.metadata?.resourceVersion },
          spec: { replicas: decision.replicas },
        },
      });
      this.options.logger.info(
        { deployment, from: replicas, to: decision.replicas, reason: decision.reason, queued: snapshot.queued, busyWorkers: decision.busyWorkers },
        'media workers scaled',
      );
    }
    return { ...decision, previousReplicas: replicas, annotated };
  }

  private async annotatePods(selector: string, workers: readonly WorkerHeartbeat[]): Promise<{ pod: string; cost: number }[]> {
    const pods = await this.core.listNamespacedPod({ namespace: this.options.namespace, labelSelector: selector });
    const byName = new Map<string, WorkerHeartbeat>();
    for (const w of workers) {
      byName.set(w.host, w);
      byName.set(w.id, w);
    }
    const changed: { pod: string; cost: number }[] = [];
    for (const pod of pods.items) {
      const name = pod.metadata?.name;
      if (!name || pod.metadata?.deletionTimestamp) continue;
      const worker = byName.get(name);
      // A pod that has not registered yet is left alone: the ReplicaSet already deletes pods that
      // are not ready before ready ones.
      if (!worker) continue;
      const cost = deletionCost(worker);
      if (currentCost(pod) === cost) continue;
      await this.core.patchNamespacedPod(
        { name, namespace: this.options.namespace, body: { metadata: { annotations: { [POD_DELETION_COST]: String(cost) } } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      changed.push({ pod: name, cost });
    }
    return changed;
  }
}

/** Idle workers are cheapest; then by sessions held. Kept inside int32 as the API requires. */
export function deletionCost(worker: Pick<WorkerHeartbeat, 'sessions'>): number {
  if (worker.sessions === 0) return IDLE_POD_DELETION_COST;
  return Math.min(2_000_000_000, worker.sessions * SESSION_POD_DELETION_COST);
}

function currentCost(pod: V1Pod): number | undefined {
  const value = pod.metadata?.annotations?.[POD_DELETION_COST];
  return value === undefined ? undefined : Number(value);
}
