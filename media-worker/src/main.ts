// The media worker process: registers in the fleet, takes studio sessions from the `sessions`
// queue while it has capacity, runs one supervised GStreamer pipeline process per session, and on
// SIGTERM drains (keeps its sessions until they end or the grace period runs out, then hands them over).
import { cpus } from 'node:os';
import { Redis } from 'ioredis';
import { runWorker, SecretBox, type WorkerContext } from '@onair/runtime';
import { ChannelRouter } from './placement/channel-router.ts';
import { createInputResolver } from './placement/input-resolver.ts';
import { SessionConsumer } from './placement/session-consumer.ts';
import { SessionHost } from './session/session-host.ts';

let host: SessionHost | undefined;
let consumer: SessionConsumer | undefined;
const connections: Redis[] = [];

async function start(ctx: WorkerContext): Promise<void> {
  host = new SessionHost({ logger: ctx.logger, redis: ctx.redis, metrics: ctx.metrics });
  const subscriber = new Redis(ctx.config.REDIS_URL, { maxRetriesPerRequest: null });
  const queueConnection = new Redis(ctx.config.REDIS_URL, { maxRetriesPerRequest: null });
  connections.push(subscriber, queueConnection);
  const secretsKey = process.env.SECRETS_KEY;
  if (!secretsKey) ctx.logger.warn('SECRETS_KEY is not set: sessions can run but cannot open destination outputs');
  consumer = new SessionConsumer({
    connection: queueConnection,
    redis: ctx.redis,
    router: new ChannelRouter(subscriber),
    host,
    box: secretsKey ? new SecretBox(secretsKey) : undefined,
    resolveInput: createInputResolver(),
    workerId: ctx.config.WORKER_ID,
    logger: ctx.logger,
    cores: Number(process.env.WORKER_CORES ?? cpus().length),
  });
  await consumer.start();
}

async function drain(ctx: WorkerContext): Promise<void> {
  await consumer?.drain(ctx.config.DRAIN_GRACE_MS);
  await consumer?.close();
  await host?.stopAll();
  for (const c of connections) c.disconnect();
}

await runWorker({
  kind: 'media',
  version: '0.1.0',
  defaultMetricsPort: 9101,
  load: () => host?.load() ?? { sessions: 0, outputs: 0, pages: 0, bitrateKbps: 0, fps: 0, droppedFrames: 0 },
  start,
  drain,
});
