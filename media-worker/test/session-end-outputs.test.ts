/**
 * A session that ends while the api goes live (CI of 2026-12-08, the two-creators journey): an idle
 * session took seconds to stop, the studio came back and went live meanwhile, and the stopping
 * session's end cleared the outputs the api had just written, so the session after it started with
 * none and the broadcast was 'live' with nothing published. Its end clears only what it knew.
 * Real Redis; the pipeline host is a recorder whose stop the test holds.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { testRedisUrl } from '@onair/embedded/test-services';
import { newProjectFromTemplate, planEntitlements, sessionKeys, type PlanOutput } from '@onair/protocol';
import { SecretBox } from '@onair/runtime';
import { ChannelRouter } from '../src/placement/channel-router.ts';
import { createInputResolver } from '../src/placement/input-resolver.ts';
import { SessionRunner } from '../src/placement/session-runner.ts';
import type { SessionHost } from '../src/session/session-host.ts';
import { MediaPorts } from '../src/webrtc/media-ports.ts';

const redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
const subscriber = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
afterAll(() => {
  redis.disconnect();
  subscriber.disconnect();
});
const box = new SecretBox(SecretBox.generateKey());
const seal = (projectId: string, outputs: PlanOutput[]) => box.seal(JSON.stringify(outputs), `session:${projectId}`);

async function runnerFor(projectId: string, stopping: Promise<void>): Promise<SessionRunner> {
  const doc = newProjectFromTemplate({ projectId, resolution: '720p', ownerId: 'owner-1', templateId: 'Beam', newId: randomUUID }, planEntitlements.Free);
  await redis.hset(sessionKeys.document(projectId), 'version', String(doc.version), 'document', JSON.stringify(doc));
  const host = {
    startSession: () => undefined,
    applyPlan: () => undefined,
    replan: () => undefined,
    setOutputs: () => undefined,
    session: () => undefined,
    stopSession: () => stopping,
  } as unknown as SessionHost;
  const runner = new SessionRunner(projectId, {
    redis,
    router: new ChannelRouter(subscriber),
    host,
    box,
    resolveInput: createInputResolver(new MediaPorts()),
    workerId: 'worker-end',
    logger: pino({ level: 'silent' }),
  });
  await runner.start();
  return runner;
}

describe("a session's end and the outputs of the broadcast after it", () => {
  it('keeps outputs the api wrote while the session was stopping, and clears the ones it knew', async () => {
    const projectId = randomUUID();
    const ended = seal(projectId, []);
    await redis.set(sessionKeys.outputs(projectId), ended);
    let release: () => void = () => undefined;
    const runner = await runnerFor(projectId, new Promise<void>((resolve) => (release = resolve)));
    const stopped = runner.stop('stopped');
    // Go Live while the pipeline is still stopping: what the api's setOutputs writes.
    const live = seal(projectId, [{ id: randomUUID(), url: 'rtmp://127.0.0.1:1935/live', key: 'k' }]);
    await redis.set(sessionKeys.outputs(projectId), live);
    release();
    await stopped;
    expect(await redis.get(sessionKeys.outputs(projectId))).toBe(live);

    // The next session reads them, and its own end (nothing new written) clears them.
    const next = await runnerFor(projectId, Promise.resolve());
    expect(next.live).toBe(true);
    await next.stop('stopped');
    expect(await redis.get(sessionKeys.outputs(projectId))).toBeNull();
  });
});
