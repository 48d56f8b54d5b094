import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import pino from 'pino';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startRtmpServer, waitFor, type RtmpServerOptions, type RunningRtmpServer } from '@onair/embedded';
import { testRedisUrl } from '@onair/embedded/test-services';
import { renderPlanSchema, type OutputState, type PipelineReport, type PlanOutput, type RenderPlan } from '@onair/protocol';
import { redactedPaths } from '@onair/runtime';
import { SessionHost } from '../../src/session/session-host.ts';

/** A stream key nobody could guess, so a grep of the logs finds it only if it leaked. */
export function secretKey(): string {
  return `sk_${randomBytes(12).toString('hex')}`;
}

export interface Fixture {
  dir: string;
  host: SessionHost;
  redis: Redis;
  metrics: Registry;
  /** Every log line of the worker and of its pipeline processes. */
  logs: string[];
  reports: { sessionId: string; report: PipelineReport; at: number }[];
  /**
   * Reports before this time are not waited for unless a `since` says so. A shared fixture moves
   * it to the start of each test (and of each retry), which often reuses a session id: a retry
   * must not take the failed attempt's reports for its own.
   */
  reportsSince: number;
  rtmp(options?: Omit<RtmpServerOptions, 'dir'>): Promise<RunningRtmpServer>;
  waitForOutput(
    sessionId: string,
    outputId: string,
    state: OutputState,
    timeoutMs?: number,
    since?: number,
  ): Promise<PipelineReport & { type: 'outputStatus' }>;
  waitForReport<T extends PipelineReport['type']>(
    sessionId: string,
    type: T,
    match?: (r: PipelineReport & { type: T }) => boolean,
    timeoutMs?: number,
    since?: number,
  ): Promise<PipelineReport & { type: T }>;
  close(): Promise<void>;
}

/** `onReport` also gets every pipeline report (the WebRTC endpoint follows them, as in the worker); `spare` keeps a pipeline process started ahead, as the worker does. */
export async function createFixture(options: { onReport?: (sessionId: string, report: PipelineReport) => void; spare?: boolean } = {}): Promise<Fixture> {
  const dir = await mkdtemp(join(tmpdir(), 'onair-mw-'));
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const logger = pino({ level: 'debug', redact: { paths: redactedPaths, censor: '[redacted]' } }, sink);
  const redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
  const metrics = new Registry();
  const reports: Fixture['reports'] = [];
  const servers: RunningRtmpServer[] = [];
  const host = new SessionHost({
    logger,
    redis,
    metrics,
    supervisor: { onLogLine: (line) => logs.push(line), restartDelaysMs: [200] },
    spare: options.spare,
    onReport: (sessionId, report) => {
      reports.push({ sessionId, report, at: Date.now() });
      options.onReport?.(sessionId, report);
    },
  });
  process.env.LOG_LEVEL = 'debug';

  const waitForReport: Fixture['waitForReport'] = (sessionId, type, match, timeoutMs = 20_000, since = fixture.reportsSince) =>
    waitFor(
      `${type} report of ${sessionId}`,
      async () =>
        reports.find(
          (r): r is { sessionId: string; report: PipelineReport & { type: typeof type }; at: number } =>
            r.sessionId === sessionId && r.at >= since && r.report.type === type && (match?.(r.report as never) ?? true),
        )?.report,
      timeoutMs,
      50,
    );

  const fixture: Fixture = {
    dir,
    host,
    redis,
    metrics,
    logs,
    reports,
    reportsSince: 0,
    rtmp: async (options = {}) => {
      const server = await startRtmpServer({ dir: join(dir, `nginx-${servers.length}`), ...options });
      servers.push(server);
      return server;
    },
    waitForReport,
    waitForOutput: (sessionId, outputId, state, timeoutMs, since) =>
      waitForReport(sessionId, 'outputStatus', (r) => r.outputId === outputId && r.state === state, timeoutMs, since),
    close: async () => {
      try {
        await host.stopAll();
      } finally {
        await Promise.all(servers.map((s) => s.stop()));
        redis.disconnect();
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
  return fixture;
}

export const WIDTH = 854;
export const HEIGHT = 480;

/** A 480p30 plan: a moving test pattern with a tone, and a solid red 160×120 layer. */
export function testPlan(outputs: PlanOutput[], redAt: { x: number; y: number } = { x: 100, y: 100 }): RenderPlan {
  return renderPlanSchema.parse({
    profile: { width: WIDTH, height: HEIGHT, fps: 30, videoBitrateKbps: 800, audioBitrateKbps: 128, encoderThreads: 1 },
    inputs: [
      { id: 'bars', kind: 'test-pattern', pattern: 'ball', width: 320, height: 180, toneHz: 440 },
      { id: 'red', kind: 'test-pattern', pattern: 'solid', color: 0xff0000, width: 160, height: 120 },
    ],
    scenes: [
      {
        id: 'main',
        placements: [
          { inputId: 'bars', x: 520, y: 20, width: 320, height: 180, zorder: 1 },
          { inputId: 'red', x: redAt.x, y: redAt.y, width: 160, height: 120, zorder: 2 },
        ],
      },
    ],
    activeSceneId: 'main',
    outputs,
  });
}

export interface SharedFixture {
  /** The file's fixture; there once its beforeAll has run. */
  readonly fx: Fixture;
  /** Every key handed out by key(), so a test can check that none of them reached the logs. */
  keys: string[];
  /** A fresh secret stream key, remembered in keys. */
  key(): string;
}

/**
 * One fixture for all the tests of a file: created before them and closed after them. With
 * DEBUG_LOGS set, the log lines that contain its value are printed first.
 */
export function useSharedFixture(): SharedFixture {
  let fx: Fixture;
  const keys: string[] = [];
  const key = (): string => {
    const k = secretKey();
    keys.push(k);
    return k;
  };

  beforeAll(async () => {
    fx = await createFixture();
  });
  beforeEach(() => {
    fx.reportsSince = Date.now();
  });
  afterAll(async () => {
    if (process.env.DEBUG_LOGS) console.warn(fx.logs.filter((l) => l.includes(process.env.DEBUG_LOGS!)).join('\n'));
    await fx?.close();
  });
  return {
    get fx() {
      return fx;
    },
    keys,
    key,
  };
}
