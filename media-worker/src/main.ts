// The media worker process: registers in the fleet, takes studio sessions from the `sessions`
// queue while it has capacity, runs one supervised GStreamer pipeline process per session, and on
// SIGTERM drains (keeps its sessions until they end or the grace period runs out, then hands them over).
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import { ProcessTreeUsage, RenderRequests, runWorker, SecretBox, uploadsBucketClient, uploadsBucketConfig, type WorkerContext } from '@onair/runtime';
import { ChannelRouter } from './placement/channel-router.ts';
import { createInputResolver } from './placement/input-resolver.ts';
import { SessionConsumer } from './placement/session-consumer.ts';
import { SessionCpu } from './session/session-cpu.ts';
import { SessionPages } from './placement/session-pages.ts';
import { EncoderGovernor } from './session/encoder-governor.ts';
import { SessionHost } from './session/session-host.ts';
import { MediaPorts } from './webrtc/media-ports.ts';
import { SignalingRelay } from './placement/signaling-relay.ts';
import { WebrtcEndpoint } from './webrtc/webrtc-endpoint.ts';
import { webrtcNetwork } from './webrtc/network-config.ts';
import { readDocument } from './placement/session-runner.ts';
import { SessionIngest } from './ingest/session-ingest.ts';
import { UploadCache } from './uploads/upload-cache.ts';

let host: SessionHost | undefined;
let endpoint: WebrtcEndpoint | undefined;
let consumer: SessionConsumer | undefined;
let sessionCpu: SessionCpu | undefined;
let renders: RenderRequests | undefined;
let governorTimer: NodeJS.Timeout | undefined;
const connections: Redis[] = [];

async function start(ctx: WorkerContext): Promise<void> {
  const cores = Number(process.env.WORKER_CORES ?? cpus().length);
  const ports = new MediaPorts();
  const network = webrtcNetwork();
  const webrtc = new WebrtcEndpoint({
    ports,
    logger: ctx.logger,
    loadDocument: (projectId) => readDocument(ctx.redis, projectId),
    // STUN/TURN servers, announced addresses and ICE ports of this deployment (network-config.ts).
    network,
    // The session host exists by the time a track flows (it is made right below).
    setJitterLatency: (projectId, ms) => host?.setJitterLatency(projectId, ms),
  });
  endpoint = webrtc;
  const sessionHost = new SessionHost({
    logger: ctx.logger,
    redis: ctx.redis,
    metrics: ctx.metrics,
    // Tracks reach a pipeline's ports only while it plays; a (re)started one has fresh decoders
    // that need a keyframe from every camera and screen.
    onReport: (sessionId, report) => webrtc.onPipelineReport(sessionId, report),
    // PIPELINE_SPARE=true: a session's first pipeline, and one that replaces it, start from a
    // process already loaded (session/pipeline-processes.ts). Off by default: with it, the clean-clone
    // runs' stack test found the media worker still running 30 s after the stack was killed with -9
    // (not reproduced outside those runs, cause not found).
    spare: process.env.PIPELINE_SPARE === 'true',
  });
  host = sessionHost;
  const subscriber = new Redis(ctx.config.REDIS_URL, { maxRetriesPerRequest: null });
  connections.push(subscriber);
  const secretsKey = process.env.SECRETS_KEY;
  if (!secretsKey) ctx.logger.warn('SECRETS_KEY is not set: sessions can run but cannot open destination outputs');
  const router = new ChannelRouter(subscriber);
  const renderConnection = new Redis(ctx.config.REDIS_URL, { maxRetriesPerRequest: null });
  connections.push(renderConnection);
  renders = new RenderRequests(renderConnection, ctx.redis);
  // Where render workers send page frames; the pipeline listens on loopback, so they run beside this worker.
  const pages = new SessionPages(renders, ports, process.env.RENDER_RTP_HOST ?? '127.0.0.1', ctx.logger);
  const uploadsDir = process.env.UPLOADS_DIR ?? '.data/uploads';
  // With the uploads in a bucket the api's folder is not this machine's: the files scenes show are fetched into a cache.
  const bucket = uploadsBucketConfig(process.env);
  const uploads =
    bucket.UPLOADS_BACKEND === 's3' && bucket.UPLOADS_S3_BUCKET
      ? new UploadCache(uploadsBucketClient(bucket), bucket.UPLOADS_S3_BUCKET, bucket.UPLOADS_S3_PREFIX, resolve(uploadsDir, 'bucket-cache'), ctx.logger)
      : undefined;
  consumer = new SessionConsumer({
    redis: ctx.redis,
    router,
    host: sessionHost,
    box: secretsKey ? new SecretBox(secretsKey) : undefined,
    resolveInput: createInputResolver(ports, uploads?.dir ?? uploadsDir),
    ...(uploads ? { uploads } : {}),
    // Recordings are parts in the uploads store the api reads (recordings/<id>/part-<n>.mp4).
    recordingsDir: resolve(uploadsDir, 'recordings'),
    pages,
    // Feeds of encoders and consoles, pulled from the RTMP ingest into the sessions' game sources.
    ingest: new SessionIngest({
      redis: ctx.redis,
      router,
      ports,
      pullBase: process.env.INGEST_PULL_URL,
      logger: ctx.logger,
      ...(process.env.INGEST_STALL_MS ? { stallAfterMs: Number(process.env.INGEST_STALL_MS) } : {}),
    }),
    ...(process.env.SESSION_IDLE_MS ? { idleMs: Number(process.env.SESSION_IDLE_MS) } : {}),
    // Tests of the death notice (issue 54) hold sessions far longer than a take-over lasts.
    ...(process.env.SESSION_LOCK_MS ? { lockMs: Number(process.env.SESSION_LOCK_MS) } : {}),
    media: new SignalingRelay({ endpoint: webrtc, router, redis: ctx.redis, workerId: ctx.config.WORKER_ID, logger: ctx.logger }),
    workerId: ctx.config.WORKER_ID,
    logger: ctx.logger,
    cores,
  });
  await consumer.start();
  sessionCpu = new SessionCpu((sessionId) => sessionHost.pidOf(sessionId));
  // Admission keeps new sessions within the cores; this keeps the running ones within them.
  const usage = new ProcessTreeUsage();
  const governor = new EncoderGovernor({
    budgetCores: Number(process.env.WORKER_CPU_BUDGET) || cores * 0.9,
    sampleCores: () => usage.sample().cpuCores,
    sessions: () => sessionHost.governed(),
    logger: ctx.logger,
  });
  governorTimer = setInterval(() => governor.tick(), 1000);
  governorTimer.unref();
}

async function drain(ctx: WorkerContext): Promise<void> {
  if (governorTimer) clearInterval(governorTimer);
  // DRAIN_HAND_OVER=false: the only media worker (./onair start) ends its sessions instead.
  await consumer?.drain(ctx.config.DRAIN_GRACE_MS, process.env.DRAIN_HAND_OVER !== 'false');
  await consumer?.close();
  await host?.stopAll();
  await endpoint?.close();
  await renders?.close();
  for (const c of connections) c.disconnect();
}

await runWorker({
  kind: 'media',
  version: '0.1.0',
  defaultMetricsPort: 9101,
  load: () => ({
    ...(host?.load() ?? { sessions: 0, outputs: 0, pages: 0, bitrateKbps: 0, fps: 0, droppedFrames: 0 }),
    // Each session's charge in the admission model beside what its pipeline measures.
    ...(consumer && sessionCpu ? { sessionLoads: sessionCpu.loads(consumer.estimates()) } : {}),
  }),
  start,
  drain,
});
