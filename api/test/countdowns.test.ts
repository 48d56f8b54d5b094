// Countdown scenes (issue 19): the real api on a test database and Redis; the scene switches when
// the countdown's time is up, timed by the api (no studio involved), with the clock advanced.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectChannels, sessionKeys, type SceneDocument, type SceneOp } from '@onair/protocol';
import { createLogger } from '@onair/runtime';
import { ProjectAccess } from '../src/access/project-access.ts';
import { Countdowns } from '../src/scenes/countdowns.ts';
import { SceneService } from '../src/scenes/scene-service.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let host: TestUser;
let clock = Date.parse('2026-11-25T12:00:00.000Z');
const now = () => new Date(clock);
let countdowns: Countdowns;
let scenes: SceneService;

beforeAll(async () => {
  api = await startStudioApi({ now });
  host = await createTestUser(api, { plan: 'Premium' });
  // What each api replica's countdown watch runs (startCountdownWatch), on the same clock.
  const logger = createLogger('countdown-test', 'silent');
  countdowns = new Countdowns({ db: api.db, redis: api.redis, logger, now });
  scenes = new SceneService(api.db, api.redis, logger, new ProjectAccess(api.db, logger), undefined, undefined, countdowns);
});
afterAll(async () => {
  await api?.close();
});

const documentOf = async (projectId: string) => (await call(api, host, 'GET', `/api/v1/projects/${projectId}/scene`)).body as SceneDocument;

async function patch(projectId: string, ops: SceneOp[]): Promise<{ status: number; body: unknown }> {
  const doc = await documentOf(projectId);
  return call(api, host, 'PATCH', `/api/v1/projects/${projectId}/scene`, { baseVersion: doc.version, ops });
}

/** A project with its first scene, a second one and a countdown of `seconds` named `next` (or none). */
async function projectWithCountdown(seconds: number, next: 'first' | null): Promise<{ projectId: string; first: string; second: string; countdown: string }> {
  const projectId = ((await call(api, host, 'POST', '/api/v1/projects', { name: 'Countdown show' })).body as { id: string }).id;
  const first = (await documentOf(projectId)).activeSceneId!;
  const second = randomUUID();
  const countdown = randomUUID();
  const res = await patch(projectId, [
    { op: 'addScene', sceneId: countdown, name: 'Countdown', kind: 'countdown' },
    { op: 'addScene', sceneId: second, name: 'Scene 2' },
    { op: 'setCountdown', sceneId: countdown, countdown: { seconds, nextSceneId: next === 'first' ? first : null } },
  ]);
  expect(res.status).toBe(200);
  return { projectId, first, second, countdown };
}

describe('countdown scenes', () => {
  it('switches to the named scene when the time is up, not before, once across replicas', async () => {
    const { projectId, first, countdown } = await projectWithCountdown(5, 'first');
    expect((await documentOf(projectId)).scenes.find((s) => s.id === countdown)).toMatchObject({
      kind: 'countdown',
      countdown: { seconds: 5, nextSceneId: first },
    });
    expect((await patch(projectId, [{ op: 'setActiveScene', sceneId: countdown }])).status).toBe(200);
    expect(await countdowns.endsAt(projectId)).toBe(clock + 5000);

    clock += 4000;
    expect(await countdowns.sweep(scenes)).toBe(0);
    expect((await documentOf(projectId)).activeSceneId).toBe(countdown);

    clock += 1500;
    // Two replicas sweep at the same moment: one switches.
    const [a, b] = await Promise.all([countdowns.sweep(scenes), countdowns.sweep(scenes)]);
    expect(a + b).toBe(1);
    expect((await documentOf(projectId)).activeSceneId).toBe(first);
    expect(await countdowns.endsAt(projectId)).toBeNull();
  });

  it('without a named scene goes to the next one in the list; leaving it early cancels it', async () => {
    const { projectId, second, countdown } = await projectWithCountdown(3, null);
    await patch(projectId, [{ op: 'setActiveScene', sceneId: countdown }]);
    clock += 3000;
    expect(await countdowns.sweep(scenes)).toBe(1);
    expect((await documentOf(projectId)).activeSceneId).toBe(second);

    await patch(projectId, [{ op: 'setActiveScene', sceneId: countdown }]);
    // The creator moves on by hand before the end: the countdown switches nothing later.
    await patch(projectId, [{ op: 'setActiveScene', sceneId: second }]);
    const before = (await documentOf(projectId)).version;
    clock += 10_000;
    expect(await countdowns.sweep(scenes)).toBe(0);
    expect((await documentOf(projectId)).version).toBe(before);
  });

  it('tells the studio the time left, and has the countdown in Redis before the patch is announced', async () => {
    const { projectId, first, countdown } = await projectWithCountdown(90, null);
    const url = `/api/v1/projects/${projectId}/countdown`;
    expect(await call(api, host, 'GET', url)).toMatchObject({ status: 200, body: { countdown: null } });

    // What a media worker does on each announced patch: read the running countdown at that moment.
    const subscriber = api.redis.duplicate();
    const seenOnAnnounce: (string | null)[] = [];
    await subscriber.subscribe(projectChannels.scene(projectId));
    const announced = new Promise<void>((resolve) =>
      subscriber.on('message', () => {
        void api.redis.get(sessionKeys.countdown(projectId)).then((raw) => {
          seenOnAnnounce.push(raw);
          resolve();
        });
      }),
    );
    try {
      await patch(projectId, [{ op: 'setActiveScene', sceneId: countdown }]);
      await announced;
    } finally {
      await subscriber.quit();
    }
    expect(JSON.parse(seenOnAnnounce[0]!)).toEqual({ sceneId: countdown, endsAt: clock + 90_000 });

    clock += 30_500;
    expect(await call(api, host, 'GET', url)).toMatchObject({
      status: 200,
      body: { countdown: { sceneId: countdown, remainingMs: 59_500, endsAt: new Date(clock + 59_500).toISOString() } },
    });
    // Someone with no role in the project is told it does not exist.
    const stranger = await createTestUser(api);
    expect(await call(api, stranger, 'GET', url)).toMatchObject({ status: 404 });

    await patch(projectId, [{ op: 'setActiveScene', sceneId: first }]);
    expect(await call(api, host, 'GET', url)).toMatchObject({ status: 200, body: { countdown: null } });
  });

  it('refuses a countdown on another kind of scene, one that goes to itself, and a time out of range', async () => {
    const { projectId, first, countdown } = await projectWithCountdown(10, null);
    const onStandard = await patch(projectId, [{ op: 'setCountdown', sceneId: first, countdown: { seconds: 10, nextSceneId: null } }]);
    expect(onStandard).toMatchObject({
      status: 422,
      body: { error: { code: 'SCENE_RULE_VIOLATED', message: 'Only a countdown scene has a countdown.', details: { rule: 'not-a-countdown' } } },
    });
    const toItself = await patch(projectId, [{ op: 'setCountdown', sceneId: countdown, countdown: { seconds: 10, nextSceneId: countdown } }]);
    expect(toItself).toMatchObject({ status: 422, body: { error: { details: { rule: 'scene-not-found' } } } });
    expect((await patch(projectId, [{ op: 'setCountdown', sceneId: countdown, countdown: { seconds: 0, nextSceneId: null } }])).status).toBe(400);
    expect((await patch(projectId, [{ op: 'setCountdown', sceneId: countdown, countdown: { seconds: 3601, nextSceneId: null } }])).status).toBe(400);
  });
});
