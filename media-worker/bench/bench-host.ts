/**
 * What the session benches share: a worker's SessionHost on a Redis of its own, with a private
 * nginx-rtmp for the sessions to push to, all in one temp folder removed by `stop`; and the
 * benches' standard session, a camera (a moving 'ball' test picture with a tone: the stand-in for a
 * decoded camera) under the OnAir logo.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pino from 'pino';
import { Registry } from 'prom-client';
import { freePort, startRedisServer, startRtmpServer, type RunningRtmpServer } from '@onair/embedded';
import type { OutputProfile, PipelineReport, PlanOutput, RenderPlanInput } from '@onair/protocol';
import { SessionHost } from '../src/session/session-host.ts';

export interface BenchHost {
  host: SessionHost;
  server: RunningRtmpServer;
  /** The bench's temp folder (removed by `stop`). */
  dir: string;
  stop(): Promise<void>;
}

export async function startBenchHost(name: string, onReport?: (sessionId: string, report: PipelineReport) => void): Promise<BenchHost> {
  const dir = await mkdtemp(join(tmpdir(), `onair-${name}-`));
  const redisService = await startRedisServer(join(dir, 'redis'), await freePort());
  const redis = new Redis(redisService.url, { maxRetriesPerRequest: null });
  const server = await startRtmpServer({ dir: join(dir, 'nginx') });
  const host = new SessionHost({
    logger: pino({ level: 'warn' }),
    redis,
    metrics: new Registry(),
    supervisor: { onLogLine: () => {} },
    ...(onReport ? { onReport } : {}),
  });
  return {
    host,
    server,
    dir,
    stop: async () => {
      await host.stopAll();
      await server.stop();
      redis.disconnect();
      await redisService.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const LOGO = fileURLToPath(new URL('../assets/onair-logo.png', import.meta.url));

/** The benches' standard session at `profile`: the camera over the whole canvas, the logo top right; `extra` inputs are placed above them. */
export function cameraAndLogoPlan(
  profile: OutputProfile,
  outputs: PlanOutput[],
  extra: { input: RenderPlanInput['inputs'][number]; visible: boolean }[] = [],
): RenderPlanInput {
  return {
    profile,
    inputs: [
      { id: 'camera', kind: 'test-pattern', pattern: 'ball', width: profile.width, height: profile.height, toneHz: 440 },
      { id: 'logo', kind: 'image', path: LOGO },
      ...extra.map((e) => e.input),
    ],
    scenes: [
      {
        id: 'main',
        placements: [
          { inputId: 'camera', x: 0, y: 0, width: profile.width, height: profile.height, zorder: 0 },
          { inputId: 'logo', x: profile.width - 220, y: 20, width: 200, height: 60, zorder: 1 },
          ...extra.map((e, i) => ({ inputId: e.input.id, x: 0, y: 0, width: profile.width, height: profile.height, zorder: 2 + i, visible: e.visible })),
        ],
      },
    ],
    activeSceneId: 'main',
    outputs,
  };
}
