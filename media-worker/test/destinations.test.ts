/**
 * Encode once, push everywhere: real GStreamer pipelines in their own processes, real nginx-rtmp
 * servers, read back with ffprobe and ffmpeg.
 */
import { describe, expect, it } from 'vitest';
import { pipelineErrorCatalogue, sessionStatusKeys, sessionStatsSchema } from '@onair/protocol';
import { HEIGHT, testPlan, useSharedFixture, WIDTH } from './helpers/session-fixture.ts';
import { keyframeIntervals, longestVideoGap, probeStream, readPackets } from './helpers/stream-probe.ts';

const suite = useSharedFixture();
const { keys, key } = suite;

describe('destinations', () => {
  it('sends the same H.264 + AAC stream to two destinations', async () => {
    const server = await suite.fx.rtmp();
    const [k1, k2] = [key(), key()];
    const base = `rtmp://127.0.0.1:${server.port}/live`;
    suite.fx.host.startSession({ sessionId: 'two-dest', planVersion: 1, plan: testPlan([{ id: 'a', url: base, key: k1 }, { id: 'b', url: base, key: k2 }]), outputPolicy: { backoffMs: [500], stallAfterMs: 5000, giveUpAfterMs: 60_000 } });
    await suite.fx.waitForOutput('two-dest', 'a', 'live');
    await suite.fx.waitForOutput('two-dest', 'b', 'live');

    const [formatA, formatB, packets] = await Promise.all([probeStream(server.url(k1)), probeStream(server.url(k2)), readPackets(server.url(k2), 5)]);
    for (const format of [formatA, formatB]) {
      expect(format.video).toMatchObject({ codec: 'h264', width: WIDTH, height: HEIGHT });
      expect(format.audio).toEqual({ codec: 'aac', sampleRate: 48000, channels: 2 });
    }
    const video = packets.filter((p) => p.stream === 'video');
    const span = video[video.length - 1]!.pts - video[0]!.pts;
    expect((video.length - 1) / span).toBeCloseTo(30, 0);
    const intervals = keyframeIntervals(packets);
    expect(intervals.length).toBeGreaterThanOrEqual(1);
    for (const interval of intervals) expect(interval).toBeCloseTo(2, 1);

    // The worker's view of the same session: Redis for the api, Prometheus for operators.
    const stats = sessionStatsSchema.parse(JSON.parse((await suite.fx.redis.get(sessionStatusKeys.stats('two-dest'))) ?? 'null'));
    expect(stats.outputs.map((o) => [o.id, o.state])).toEqual([['a', 'live'], ['b', 'live']]);
    expect(stats.fps).toBeGreaterThan(25);
    const metrics = await suite.fx.metrics.getSingleMetricAsString('onair_media_output_live');
    expect(metrics).toContain('onair_media_output_live{session="two-dest",output="a"} 1');
    expect(suite.fx.host.load()).toMatchObject({ sessions: 1, outputs: 2 });
    await suite.fx.host.stopSession('two-dest');
  });

  it('checks the address again before connecting: an output the api did not allow onto a private network fails, the other streams', async () => {
    const server = await suite.fx.rtmp();
    const [kAllowed, kRefused] = [key(), key()];
    const base = `rtmp://127.0.0.1:${server.port}/live`;
    const started = Date.now();
    suite.fx.host.startSession({
      sessionId: 'address-check',
      planVersion: 1,
      // As the api seals them: the operator's own server may be local, a creator's custom server may not.
      plan: testPlan([{ id: 'local', url: base, key: kAllowed, allowPrivate: true }, { id: 'custom', url: base, key: kRefused, allowPrivate: false }]),
    });
    const refused = await suite.fx.waitForOutput('address-check', 'custom', 'failed', 10_000, started);
    expect(refused).toMatchObject({ errorCode: 'DESTINATION_ADDRESS_REFUSED', reason: pipelineErrorCatalogue.DESTINATION_ADDRESS_REFUSED.message });
    await suite.fx.waitForOutput('address-check', 'local', 'live');
    expect((await probeStream(server.url(kAllowed))).video).toMatchObject({ codec: 'h264' });
    // Nothing ever reached the refused server's stream name.
    await expect(probeStream(server.url(kRefused), 5000)).rejects.toThrow();
    await suite.fx.host.stopSession('address-check');
  });

  it('keeps other outputs going while one is refused and one server dies and comes back', async () => {
    const steady = await suite.fx.rtmp();
    const flaky = await suite.fx.rtmp();
    const refusing = await suite.fx.rtmp({ acceptKeys: ['only-this-one'] });
    const [kSteady, kFlaky, kRefused] = [key(), key(), key()];
    const url = (s: { port: number }) => `rtmp://127.0.0.1:${s.port}/live`;
    suite.fx.host.startSession({
      sessionId: 'isolation',
      planVersion: 1,
      plan: testPlan([
        { id: 'steady', url: url(steady), key: kSteady },
        { id: 'flaky', url: url(flaky), key: kFlaky },
        { id: 'refused', url: url(refusing), key: kRefused },
      ]),
      outputPolicy: { backoffMs: [500, 1000, 2000], stallAfterMs: 4000, giveUpAfterMs: 60_000 },
    });
    const refused = await suite.fx.waitForOutput('isolation', 'refused', 'failed');
    expect(refused.errorCode).toBe('DESTINATION_REFUSED');
    expect(refused.reason).toMatch(/stream key/);
    await suite.fx.waitForOutput('isolation', 'steady', 'live');
    await suite.fx.waitForOutput('isolation', 'flaky', 'live');

    // Read the steady destination for the whole outage; its stream must have no hole over 1 s.
    const steadyPackets = readPackets(steady.url(kSteady), 16);
    await new Promise((r) => setTimeout(r, 2000));
    await flaky.stop({ abrupt: true });
    await suite.fx.waitForOutput('isolation', 'flaky', 'reconnecting');
    await new Promise((r) => setTimeout(r, 3000));
    await flaky.restart();
    const back = Date.now();
    await suite.fx.waitForOutput('isolation', 'flaky', 'live', 10_000, back);

    const packets = await steadyPackets;
    expect(packets.filter((p) => p.stream === 'video').length).toBeGreaterThan(300);
    expect(longestVideoGap(packets)).toBeLessThan(1);
    const stats = suite.fx.host.session('isolation')?.stats;
    expect(stats?.outputs.find((o) => o.id === 'flaky')?.reconnects).toBeGreaterThanOrEqual(1);
    expect(stats?.outputs.find((o) => o.id === 'refused')).toMatchObject({ state: 'failed', errorCode: 'DESTINATION_REFUSED', bitrateKbps: 0 });
    await suite.fx.host.stopSession('isolation');
  });

  it('adds and removes a destination live without touching the other', async () => {
    const server = await suite.fx.rtmp();
    const [kStay, kAdded] = [key(), key()];
    const base = `rtmp://127.0.0.1:${server.port}/live`;
    const stay = { id: 'stay', url: base, key: kStay };
    suite.fx.host.startSession({ sessionId: 'live-edit', planVersion: 1, plan: testPlan([stay]) });
    await suite.fx.waitForOutput('live-edit', 'stay', 'live');

    const stayPackets = readPackets(server.url(kStay), 10);
    await new Promise((r) => setTimeout(r, 1500));
    suite.fx.host.setOutputs('live-edit', [stay, { id: 'added', url: base, key: kAdded }]);
    await suite.fx.waitForOutput('live-edit', 'added', 'live');
    const added = await probeStream(server.url(kAdded));
    expect(added.video).toMatchObject({ codec: 'h264', width: WIDTH, height: HEIGHT });
    suite.fx.host.setOutputs('live-edit', [stay]);
    await suite.fx.waitForOutput('live-edit', 'added', 'stopped');

    const packets = await stayPackets;
    expect(packets.filter((p) => p.stream === 'video').length).toBeGreaterThan(200);
    expect(longestVideoGap(packets)).toBeLessThan(1);
    await suite.fx.host.stopSession('live-edit');
  });

  it('catches a destination that stops reading (bytes-sent watchdog) and reconnects once it reads again', async () => {
    const server = await suite.fx.rtmp();
    const k = key();
    const base = testPlan([{ id: 'frozen', url: `rtmp://127.0.0.1:${server.port}/live`, key: k }]);
    // A high rate fills the loopback socket buffers within seconds once the server stops reading.
    const supervisor = suite.fx.host.startSession({
      sessionId: 'stall',
      planVersion: 1,
      plan: { ...base, profile: { ...base.profile, videoBitrateKbps: 8000 } },
      outputPolicy: { backoffMs: [500], stallAfterMs: 2000, giveUpAfterMs: 60_000 },
    });
    await suite.fx.waitForOutput('stall', 'frozen', 'live');
    const frozenAt = Date.now();
    const framesAtFreeze = supervisor.stats?.framesOut ?? 0;
    process.kill(server.pid!, 'SIGSTOP');
    try {
      const stalled = await suite.fx.waitForOutput('stall', 'frozen', 'reconnecting', 30_000, frozenAt);
      expect(stalled.errorCode).toBe('DESTINATION_STALLED');
    } finally {
      process.kill(server.pid!, 'SIGCONT');
    }
    const thawedAt = Date.now();
    await suite.fx.waitForOutput('stall', 'frozen', 'live', 10_000, thawedAt);
    // The program never waited on the frozen destination.
    await new Promise((r) => setTimeout(r, 1100));
    const framesSince = (supervisor.stats?.framesOut ?? 0) - framesAtFreeze;
    expect(framesSince).toBeGreaterThan(((Date.now() - frozenAt) / 1000 - 2) * 25);
    await suite.fx.host.stopSession('stall');
  });

  it('never writes a stream key in a log line', () => {
    expect(keys.length).toBeGreaterThan(5);
    expect(suite.fx.logs.length).toBeGreaterThan(20);
    for (const k of keys) expect(suite.fx.logs.filter((line) => line.includes(k))).toEqual([]);
  });
});
