export { createLogger, redactUrl, redactedPaths, type Logger } from './logger.ts';
export { HeartbeatPublisher, type HeartbeatOptions, type WorkerLoad } from './heartbeat.ts';
export { createMetricsRegistry, startMetricsServer } from './metrics-server.ts';
export { onShutdownSignal } from './shutdown.ts';
export { REDIS_GONE_MS, unlessRedisGone } from './redis-gone.ts';
export { ExitGuard, type ExitGuardOptions } from './exit-guard.ts';
export { runWorker, type WorkerContext, type WorkerDefinition, type WorkerConfig } from './worker-process.ts';
export { SecretBox } from './secret-box.ts';
export { RenderRequests } from './render-requests.ts';
export { BullQueue, type BullQueueOptions } from './bull-queue.ts';
export { ProcessTreesUsage, ProcessTreeUsage } from './process-tree.ts';
export { rtmpAddressRefusal } from './rtmp-guard.ts';
export {
  EgressPolicy,
  egressResolver,
  systemResolver,
  dnsServersResolver,
  type EgressDecision,
  type EgressRefusalCode,
  type Resolver,
} from './egress/egress-policy.ts';
export { EgressProxy, REFUSED_HEADER, type EgressRefusal } from './egress/egress-proxy.ts';
export { OwnPagesGate, OWN_PAGE_SIG_PARAM, signOwnPageUrl, verifyOwnPageUrl } from './egress/own-pages.ts';
export { s3ClientOf, uploadsBucketClient, uploadsBucketConfig, uploadsBucketShape, type S3ClientOptions, type UploadsBucketConfig } from './uploads-bucket.ts';
export { TetheredProcess, writeTetheredLauncher, type TetheredProcessOptions, type ProcessExit } from './process/tethered-process.ts';
export {
  descendantsOf,
  describeProcesses,
  leftoverProcesses,
  readProcessTable,
  stillRunning,
  type LeftoverQuery,
  type ProcessEntry,
} from './process/process-table.ts';
export { WorkerDeaths, type WorkerDeathsOptions } from './fleet/worker-deaths.ts';
