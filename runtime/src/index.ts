export { createLogger, redactUrl, redactedPaths, type Logger } from './logger.ts';
export { HeartbeatPublisher, type HeartbeatOptions, type WorkerLoad } from './heartbeat.ts';
export { createMetricsRegistry, startMetricsServer } from './metrics-server.ts';
export { onShutdownSignal } from './shutdown.ts';
export { runWorker, type WorkerContext, type WorkerDefinition, type WorkerConfig } from './worker-process.ts';
export { SecretBox } from './secret-box.ts';
export { RenderRequests } from './render-requests.ts';
export { ProcessTreeUsage } from './process-tree.ts';
export { rtmpAddressRefusal, type Resolve } from './rtmp-guard.ts';
