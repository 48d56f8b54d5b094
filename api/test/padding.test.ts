// Pre-roll and post-roll padding at Go Live and End Broadcast (issue 19): the real api on a test
// database and Redis; the outputs run through the padding, and the broadcast watch settles it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionKeys, type BroadcastView } from '@onair/protocol';
import { createLogger, SecretBox } from '@onair/runtime';
import { testRedisUrl } from '@onair/embedded/test-services';
import { loadConfig } from '../src/config.ts';
import { startBroadcastWatch } from '../src/destinations/index.ts';
import { compose } from '../src/compose.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let host: TestUser;
const secretsKey = SecretBox.generateKey();

beforeAll(async () => {
  api = await startStudioApi({ env: { SECRETS_KEY: secretsKey, LOCAL_RTMP_URL: 'rtmp://127.0.0.1:19350/live' } });
  host = await createTestUser(api);
});
afterAll(async () => {
  await api?.close();
});

async function project(): Promise<string> {
  const projectId = ((await call(api, host, 'POST', '/api/v1/projects', { name: 'Padded' })).body as { id: string }).id;
  expect((await call(api, host, 'POST', `/api/v1/projects/${projectId}/destinations`, { type: 'Local' })).status).toBe(201);
  return projectId;
}

/** The outputs the session pushes to now, as the worker reads them. */
async function outputs(projectId: string): Promise<unknown[]> {
  const sealed = await api.redis.get(sessionKeys.outputs(projectId));
  return sealed ? (JSON.parse(new SecretBox(secretsKey).open(sealed, `session:${projectId}`)) as unknown[]) : [];
}

const broadcastOf = async (projectId: string) =>
  ((await call(api, host, 'GET', `/api/v1/projects/${projectId}/broadcast`)).body as { broadcast: BroadcastView }).broadcast;

describe('padding', () => {
  it('streams the pre-roll before the broadcast counts as live, and the post-roll after End Broadcast', async () => {
    const projectId = await project();
    const logger = createLogger('padding-test', 'silent');
    const config = loadConfig({ DATABASE_URL: api.databaseUrl, REDIS_URL: testRedisUrl(), SECRETS_KEY: secretsKey, LOG_LEVEL: 'silent' });
    const services = compose({ config, db: api.db, redis: api.redis, logger });
    const watch = await startBroadcastWatch({ ...services, sweepEveryMs: 60_000 });
    try {
      const wentLive = Date.now();
      const started = await call(api, host, 'POST', `/api/v1/projects/${projectId}/broadcast`, { preRollSeconds: 20, postRollSeconds: 20 });
      expect(started).toMatchObject({ status: 201, body: { state: 'starting', startedAt: null } });
      // The outputs run during the pre-roll.
      expect(await outputs(projectId)).toHaveLength(1);
      expect(await watch.settlePadding(new Date(wentLive + 15_000))).toBe(0);
      expect((await broadcastOf(projectId)).state).toBe('starting');
      expect(await watch.settlePadding(new Date(wentLive + 25_000))).toBe(1);
      const live = await broadcastOf(projectId);
      expect(live.state).toBe('live');
      expect(Date.parse(live.startedAt!) - wentLive).toBeGreaterThanOrEqual(20_000);

      const endedAt = Date.now();
      expect((await call(api, host, 'POST', `/api/v1/projects/${projectId}/broadcast/end`)).body).toMatchObject({ state: 'ending' });
      // The outputs keep running through the post-roll…
      expect(await outputs(projectId)).toHaveLength(1);
      expect(await watch.settlePadding(new Date(endedAt + 15_000))).toBe(0);
      expect((await broadcastOf(projectId)).state).toBe('ending');
      // …and stop when it is over, once however many replicas sweep.
      const [a, b] = await Promise.all([watch.settlePadding(new Date(endedAt + 25_000)), watch.settlePadding(new Date(endedAt + 25_000))]);
      expect(a + b).toBe(1);
      expect(await broadcastOf(projectId)).toMatchObject({ state: 'ended', failureReason: null });
      expect(await outputs(projectId)).toEqual([]);
    } finally {
      await watch.close();
      await call(api, host, 'DELETE', `/api/v1/projects/${projectId}/session`);
      await services.close();
    }
  });

  it('is off by default, and refuses more than 30 seconds', async () => {
    const projectId = await project();
    expect((await call(api, host, 'POST', `/api/v1/projects/${projectId}/broadcast`, { preRollSeconds: 31 })).status).toBe(400);
    expect((await call(api, host, 'POST', `/api/v1/projects/${projectId}/broadcast`)).body).toMatchObject({ state: 'live' });
    expect((await call(api, host, 'POST', `/api/v1/projects/${projectId}/broadcast/end`)).body).toMatchObject({ state: 'ended' });
    expect(await outputs(projectId)).toEqual([]);
    await call(api, host, 'DELETE', `/api/v1/projects/${projectId}/session`);
  });
});
