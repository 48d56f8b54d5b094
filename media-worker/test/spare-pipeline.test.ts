// The worker keeps one pipeline process started ahead of need (session/pipeline-processes.ts): a
// session starts on it, a session whose process is replaced (a new output profile) goes on in the
// next spare, and the spare ends with the host.
import { describe, expect, it } from 'vitest';
import { waitFor } from '@onair/embedded';
import { createFixture, secretKey, testPlan } from './helpers/session-fixture.ts';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('spare pipeline process', () => {
  it('starts a session on the spare, replaces its process with the next spare, and ends the spare with the host', async () => {
    const fx = await createFixture({ spare: true });
    let lastSpare: number | undefined;
    try {
      const server = await fx.rtmp();
      const first = await waitFor('a spare pipeline process', async () => fx.host.sparePid, 10_000, 20);
      const plan = testPlan([{ id: 'main', url: `rtmp://127.0.0.1:${server.port}/live`, key: secretKey() }]);
      const session = fx.host.startSession({ sessionId: 'spare', planVersion: 1, plan });
      // Started once the session's output fan-outs listen (a moment): on the spare.
      expect(await waitFor('the session started', async () => session.pid, 5000, 5)).toBe(first);
      await fx.waitForOutput('spare', 'main', 'live', 30_000);

      const second = await waitFor(
        'the next spare',
        async () => (fx.host.sparePid !== undefined && fx.host.sparePid !== first ? fx.host.sparePid : undefined),
        20_000,
        50,
      );
      const since = Date.now();
      fx.host.applyPlan('spare', 2, { ...plan, profile: { ...plan.profile, videoBitrateKbps: plan.profile.videoBitrateKbps - 200 } });
      await waitFor('the session on the next spare', async () => (session.pid === second && session.current === 'running' ? true : undefined), 20_000, 20);
      // The destination's connection is the worker's: it stays live through the replacement (issue 54).
      expect(fx.reports.filter((r) => r.sessionId === 'spare' && r.at >= since && r.report.type === 'outputStatus')).toEqual([]);
      expect(alive(first)).toBe(false);
      lastSpare = await waitFor(
        'a third spare',
        async () => (fx.host.sparePid !== undefined && fx.host.sparePid !== second ? fx.host.sparePid : undefined),
        20_000,
        50,
      );
    } finally {
      await fx.close();
    }
    await waitFor('the spare gone with its host', async () => (!alive(lastSpare!) ? true : undefined), 5000, 20);
  }, 120_000);
});
