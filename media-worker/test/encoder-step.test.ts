/**
 * The encoder's step-down (issue 13): with the worker's CPU budget lowered below what it uses,
 * the governor steps the session's encoder down its ladder of faster presets, at the same encoded
 * size, while the destination stays connected and keeps getting 30 frames a second.
 */
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { waitFor } from '@onair/embedded';
import { encoderLadder, type PipelineReport } from '@onair/protocol';
import { ProcessTreeUsage } from '@onair/runtime';
import { EncoderGovernor, type GovernorDecision } from '../src/session/encoder-governor.ts';
import { HEIGHT, testPlan, useSharedFixture, WIDTH } from './helpers/session-fixture.ts';
import { grabFrame, longestVideoGap, near, pixel, probeStream, readPackets } from './helpers/stream-probe.ts';

const suite = useSharedFixture();

describe('encoder step-down', () => {
  it('steps the encoder down its presets when the worker passes its CPU budget, and the output keeps 30 fps at its size', async () => {
    const server = await suite.fx.rtmp();
    const k = suite.key();
    const outputs = [{ id: 'main', url: `rtmp://127.0.0.1:${server.port}/live`, key: k }];
    const plan = testPlan(outputs);
    const ladder = encoderLadder(plan.profile);
    expect(ladder.map((s) => `${s.preset}@${s.width}x${s.height}`)).toEqual(['veryfast@854x480', 'ultrafast@854x480']);

    suite.fx.host.startSession({ sessionId: 'step', planVersion: 1, plan });
    await suite.fx.waitForOutput('step', 'main', 'live');
    const statsOf = (match: (r: PipelineReport & { type: 'stats' }) => boolean, since: number) => suite.fx.waitForReport('step', 'stats', match, 20_000, since);
    const planned = await statsOf((r) => r.stats.encoder !== undefined, 0);
    expect(planned.stats.encoder).toMatchObject({ step: 0, preset: 'veryfast', width: WIDTH, height: HEIGHT });

    // The governor as the worker runs it, over this process's tree (the pipeline process is a
    // child of it); the budget starts where this session fits, then is lowered under its use.
    const usage = new ProcessTreeUsage();
    const decisions: GovernorDecision[] = [];
    const governor = new EncoderGovernor({
      budgetCores: 100,
      sampleCores: () => usage.sample().cpuCores,
      sessions: () => suite.fx.host.governed(),
      logger: pino({ level: 'silent' }),
      overSamples: 2,
      holdMs: 1500,
      // This small 480p session saves little per step; the test walks the whole ladder.
      minSavingCores: -1,
    });
    const timer = setInterval(() => {
      const d = governor.tick();
      if (d) decisions.push(d);
    }, 500);
    try {
      // The governor steps a pipeline only once it has settled (played GOVERNOR_SETTLE_MS).
      await waitFor(
        'the pipeline settled',
        async () => (suite.fx.host.governed().find((s) => s.sessionId === 'step')?.settled ? true : undefined),
        30_000,
        100,
      );
      const reading = readPackets(server.url(k), 10);
      await new Promise((r) => setTimeout(r, 1500));
      const lowered = Date.now();
      governor.budgetCores = 0.001;

      const fastest = await statsOf((r) => r.stats.encoder?.step === 1, lowered);
      // Read back from the encoder: its preset, and the size of the frames it takes.
      expect(fastest.stats.encoder).toMatchObject({ preset: 'ultrafast', width: WIDTH, height: HEIGHT });
      expect(decisions.map((d) => [d.sessionId, d.from, d.to, d.reason])).toEqual([['step', 0, 1, 'cpu']]);
      // The bottom of the ladder: nothing further to give.
      governor.budgetCores = 100;

      const packets = await reading;
      const video = packets.filter((p) => p.stream === 'video');
      const span = video.at(-1)!.pts - video[0]!.pts;
      // A re-opened encoder inside the window, and the output's frames go on (a few at most missing).
      process.stdout.write(
        `step-down: ${video.length} video packets over ${span.toFixed(2)} s of output (${(video.length / span).toFixed(2)} fps), longest gap ${longestVideoGap(packets).toFixed(3)} s, steps at ${decisions.map((d) => `${d.cores} cores`).join(', ')}\n`,
      );
      expect(span).toBeGreaterThan(8);
      expect(video.length / span).toBeGreaterThan(29.5);
      // The valve before the encoder is closed while x264 re-opens: about 2 ms on a quiet machine,
      // but the re-open waits for the frame being encoded, and on two cores shared with the rest of
      // the suite that took up to 105 ms (3 frames dropped). A reconnect or a stalled encoder would
      // leave seconds; a few frames is the design's worst case on a starved machine.
      expect(longestVideoGap(packets)).toBeLessThan(0.25);

      // The same connection all along, and a new reader sees the encode at its size, picture intact.
      expect(suite.fx.host.session('step')?.stats?.outputs[0]).toMatchObject({ state: 'live', reconnects: 0 });
      const format = await probeStream(server.url(k));
      expect(format.video).toMatchObject({ codec: 'h264', width: WIDTH, height: HEIGHT });
      const frame = await grabFrame(server.url(k), WIDTH, HEIGHT);
      // The red layer at (100,100) 160×120.
      expect(near(pixel(frame, 180, 160), [255, 0, 0])).toBe(true);

      // A pipeline process that crashes is restarted at the step it had, not back at the top.
      const killed = Date.now();
      const oldPid = suite.fx.host.session('step')!.pid!;
      process.kill(oldPid, 'SIGKILL');
      await suite.fx.waitForReport('step', 'state', (r) => r.state === 'playing', 20_000, killed);
      const replaced = Date.now();
      expect(suite.fx.host.session('step')?.pid).not.toBe(oldPid);
      const restarted = await statsOf((r) => r.stats.encoder !== undefined, replaced);
      expect(restarted.stats.encoder).toMatchObject({ step: 1, preset: 'ultrafast', width: WIDTH, height: HEIGHT });
    } finally {
      clearInterval(timer);
      await suite.fx.host.stopSession('step');
    }
    await waitFor('session gone', async () => suite.fx.host.session('step') === undefined || undefined, 5000);
  }, 120_000);
});
