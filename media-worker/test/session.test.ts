/**
 * The session as the worker drives it: plan updates reach the picture, a crashed pipeline process
 * is restarted without touching another session, outputs that cannot connect or stay down fail
 * with a reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@onair/embedded';
import { freePort } from '@onair/embedded';
import { createFixture, HEIGHT, secretKey, testPlan, WIDTH, type Fixture } from './helpers/session-fixture.ts';
import { grabFrame, near, pixel } from './helpers/stream-probe.ts';

const RED = [255, 0, 0];
const BLACK = [0, 0, 0];
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
afterAll(async () => {
  if (process.env.DEBUG_LOGS) console.warn(fx.logs.filter((l) => l.includes(process.env.DEBUG_LOGS!)).join('\n'));
  await fx?.close();
});

describe('session', () => {
  it('moves a layer when a new plan version is applied', async () => {
    const server = await fx.rtmp();
    const k = key();
    const outputs = [{ id: 'main', url: `rtmp://127.0.0.1:${server.port}/live`, key: k }];
    fx.host.startSession({ sessionId: 'move', planVersion: 1, plan: testPlan(outputs, { x: 100, y: 100 }) });
    await fx.waitForOutput('move', 'main', 'live');

    const before = await grabFrame(server.url(k), WIDTH, HEIGHT);
    expect(near(pixel(before, 180, 160), RED)).toBe(true);
    expect(near(pixel(before, 580, 360), BLACK)).toBe(true);

    const sent = Date.now();
    fx.host.applyPlan('move', 2, testPlan(outputs, { x: 500, y: 300 }));
    await fx.waitForReport('move', 'planApplied', (r) => r.version === 2, 5000, sent);
    // A new reader starts at the next keyframe (≤ 2 s later), so the frame is after the change.
    const after = await grabFrame(server.url(k), WIDTH, HEIGHT);
    expect(near(pixel(after, 580, 360), RED)).toBe(true);
    expect(near(pixel(after, 180, 160), BLACK)).toBe(true);
    await fx.host.stopSession('move');
  });

  it('restarts a crashed pipeline process and leaves the other session alone', async () => {
    const server = await fx.rtmp();
    const [kA, kB] = [key(), key()];
    const url = `rtmp://127.0.0.1:${server.port}/live`;
    const a = fx.host.startSession({ sessionId: 'crashes', planVersion: 1, plan: testPlan([{ id: 'out', url, key: kA }]) });
    const b = fx.host.startSession({ sessionId: 'bystander', planVersion: 1, plan: testPlan([{ id: 'out', url, key: kB }]) });
    await fx.waitForOutput('crashes', 'out', 'live');
    await fx.waitForOutput('bystander', 'out', 'live');
    const crashedPid = a.pid!;
    const bystanderPid = b.pid;
    const framesBefore = b.stats?.framesOut ?? 0;

    const killedAt = Date.now();
    process.kill(crashedPid, 'SIGKILL');
    const crash = await fx.waitForReport('crashes', 'error', (r) => r.code === 'PIPELINE_CRASHED', 5000, killedAt);
    expect(crash.fatal).toBe(false);
    await fx.waitForOutput('crashes', 'out', 'live', 20_000, killedAt);
    expect(a.pid).not.toBe(crashedPid);
    expect(a.restarts).toBe(1);

    expect(b.pid).toBe(bystanderPid);
    expect(fx.reports.filter((r) => r.sessionId === 'bystander' && r.at >= killedAt && r.report.type === 'error')).toEqual([]);
    await waitFor('bystander frames', async () => ((b.stats?.framesOut ?? 0) > framesBefore + 30 ? true : undefined), 5000);
    await Promise.all([fx.host.stopSession('crashes'), fx.host.stopSession('bystander')]);
  });

  it('fails fast on an unreachable destination and gives up on one that stays down', async () => {
    const server = await fx.rtmp();
    const closedPort = await freePort();
    const [kGone, kNowhere] = [key(), key()];
    fx.host.startSession({
      sessionId: 'failures',
      planVersion: 1,
      plan: testPlan([
        { id: 'gone', url: `rtmp://127.0.0.1:${server.port}/live`, key: kGone },
        { id: 'nowhere', url: `rtmp://127.0.0.1:${closedPort}/live`, key: kNowhere },
      ]),
      outputPolicy: { backoffMs: [300], stallAfterMs: 3000, giveUpAfterMs: 2500 },
    });
    const nowhere = await fx.waitForOutput('failures', 'nowhere', 'failed');
    expect(nowhere.errorCode).toBe('DESTINATION_UNREACHABLE');
    expect(nowhere.reason).toMatch(/server address/);
    await fx.waitForOutput('failures', 'gone', 'live');

    await server.stop({ abrupt: true });
    const gone = await fx.waitForOutput('failures', 'gone', 'failed', 15_000);
    expect(gone.errorCode).toBe('DESTINATION_LOST');
    const supervisor = fx.host.session('failures');
    await waitFor('stats after give-up', async () => (supervisor?.stats?.outputs.find((o) => o.id === 'gone')?.state === 'failed' ? true : undefined), 3000);
    expect(supervisor?.current).toBe('running');
    expect(supervisor?.stats?.fps).toBeGreaterThan(20);
    await fx.host.stopSession('failures');
  });

  it('never writes a stream key in a log line', () => {
    expect(fx.logs.length).toBeGreaterThan(20);
    for (const k of keys) expect(fx.logs.filter((line) => line.includes(k))).toEqual([]);
  });
});
