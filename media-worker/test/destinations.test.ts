/**
 * Encode once, push everywhere: real GStreamer pipelines in their own processes, real nginx-rtmp
 * servers, read back with ffprobe and ffmpeg.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { pipelineErrorCatalogue, sessionStatusKeys, sessionStatsSchema } from '@onair/protocol';
import { dnsServersResolver, rtmpAddressRefusal } from '@onair/runtime';
import { startDnsDouble } from '@onair/runtime/dns-double';
import { HEIGHT, testPlan, useSharedFixture, WIDTH } from './helpers/session-fixture.ts';
import { keyframeIntervals, longestVideoGap, probeStream, readPackets, watchPackets } from './helpers/stream-probe.ts';

// Before any pipeline process starts: they take the resolver their egress uses from the environment.
const dns = await startDnsDouble();
process.env.EGRESS_DNS_SERVERS = dns.server;
afterAll(() => dns.close());

const suite = useSharedFixture();
const { keys, key } = suite;

describe('destinations', () => {
  it('sends the same H.264 + AAC stream to two destinations', async () => {
    const server = await suite.fx.rtmp();
    const [k1, k2] = [key(), key()];
    const base = `rtmp://127.0.0.1:${server.port}/live`;
    suite.fx.host.startSession({
      sessionId: 'two-dest',
      planVersion: 1,
      plan: testPlan([
        { id: 'a', url: base, key: k1 },
        { id: 'b', url: base, key: k2 },
      ]),
      outputPolicy: { backoffMs: [500], stallAfterMs: 5000, giveUpAfterMs: 60_000 },
    });
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
    expect(stats.outputs.map((o) => [o.id, o.state])).toEqual([
      ['a', 'live'],
      ['b', 'live'],
    ]);
    expect(stats.fps).toBeGreaterThan(25);
    const metrics = await suite.fx.metrics.getSingleMetricAsString('onair_media_output_live');
    expect(metrics).toContain('onair_media_output_live{session="two-dest",output="a"} 1');
    expect(suite.fx.host.load()).toMatchObject({ sessions: 1, outputs: 2 });
    await suite.fx.host.stopSession('two-dest');
  });

  it('a destination added while live gets a keyframe of its own at once, and keyframes stay at most 2 s apart', async () => {
    const server = await suite.fx.rtmp();
    const [kA, kB] = [key(), key()];
    const base = `rtmp://127.0.0.1:${server.port}/live`;
    const a = { id: 'a', url: base, key: kA };
    // Its own name per attempt, and stopped whatever happens: a retry must find no session of the attempt before it.
    const id = `join-late-${randomUUID().slice(0, 8)}`;
    suite.fx.host.startSession({ sessionId: id, planVersion: 1, plan: testPlan([a]) });
    try {
      await suite.fx.waitForOutput(id, 'a', 'live');
      // A is read throughout, from before B joins to after.
      const continuing = readPackets(server.url(kA), 9);
      // Add B about 1 s into a GOP: 1 s after a keyframe of A is read as it arrives. (This was
      // predicted from a 2.5 s read of A that ended when its ffprobe exited: on a loaded machine
      // that came late, B was added next to the 2 s grid, and its own keyframe could not be told
      // from the grid's: 'A keyframes 2.000 3.933 5.933; B first keyframe 3.933', both attempts.)
      const watch = watchPackets(server.url(kA));
      const gopStart = await watch.liveKeyframe(2).finally(() => watch.stop());
      // The viewers wait for B's publisher, so B is read from the first frame it sends: started
      // now, the reader waits at the server for most of a second before B publishes.
      const joined = readPackets(server.url(kB), 3);
      await new Promise((r) => setTimeout(r, Math.max(0, gopStart.at + 1000 - Date.now())));
      suite.fx.host.setOutputs(id, [a, { id: 'b', url: base, key: kB }]);
      await suite.fx.waitForOutput(id, 'b', 'live');

      const bVideo = (await joined).filter((p) => p.stream === 'video');
      const aKeys = (await continuing).filter((p) => p.stream === 'video' && p.keyframe).map((p) => p.pts);
      const bFirstKey = bVideo.find((p) => p.keyframe)!.pts;
      process.stdout.write(
        `join-late: A keyframes ${aKeys.map((t) => t.toFixed(3)).join(' ')}; B first packet ${bVideo[0]?.pts.toFixed(3)}, first keyframe ${bFirstKey.toFixed(3)}\n`,
      );
      // One encode: B's first keyframe is one of A's, and it is off the 2 s grid: made for B.
      const index = aKeys.findIndex((t) => Math.abs(t - bFirstKey) < 0.005);
      expect(index).toBeGreaterThan(0);
      expect(aKeys[index]! - aKeys[index - 1]!).toBeLessThan(1.8);
      // Keyframes never more than 2 s apart (the GOP running when B joined is cut short).
      for (let i = 1; i < aKeys.length; i++) expect(aKeys[i]! - aKeys[i - 1]!).toBeLessThanOrEqual(2.05);
    } finally {
      await suite.fx.host.stopSession(id);
    }
  });

  it('connects only through the egress rule: a name re-pointed at loopback, a trailing-dot name and a literal the api did not allow fail; a permitted name reaches the checked address and keeps its name in the tcUrl', async () => {
    // The names of this test resolve through a DNS double (the pipeline processes read
    // EGRESS_DNS_SERVERS when they start): `rebind.test` answers a public address first, as it did
    // when the api saved it, and loopback from then on.
    dns.set('rebind.test', ['93.184.216.34'], ['127.0.0.1']);
    dns.set('local-rtmp.test', ['127.0.0.1']);
    expect(await rtmpAddressRefusal('rtmp://rebind.test/live', false, dnsServersResolver([dns.server]))).toBeNull();

    // This server only takes publishes whose tcUrl names local-rtmp.test, as virtual-host servers do.
    const server = await suite.fx.rtmp({ acceptTcUrlHosts: ['local-rtmp.test'] });
    const literal = await suite.fx.rtmp();
    const [kNamed, kRebound, kDotted, kLiteral] = [key(), key(), key(), key()];
    const started = Date.now();
    suite.fx.host.startSession({
      sessionId: 'address-check',
      planVersion: 1,
      plan: testPlan([
        // As the api seals them: the operator's own server may be local, a creator's custom server may not.
        { id: 'named', url: `rtmp://local-rtmp.test:${server.port}/live`, key: kNamed, allowPrivate: true },
        { id: 'rebound', url: `rtmp://rebind.test:${server.port}/live`, key: kRebound, allowPrivate: false },
        { id: 'dotted', url: `rtmp://localhost.:${literal.port}/live`, key: kDotted, allowPrivate: false },
        { id: 'literal', url: `rtmp://127.0.0.1.:${literal.port}/live`, key: kLiteral, allowPrivate: false },
      ]),
    });
    for (const id of ['rebound', 'dotted', 'literal']) {
      const refused = await suite.fx.waitForOutput('address-check', id, 'failed', 15_000, started);
      expect(refused, id).toMatchObject({ errorCode: 'DESTINATION_ADDRESS_REFUSED', reason: pipelineErrorCatalogue.DESTINATION_ADDRESS_REFUSED.message });
    }
    await suite.fx.waitForOutput('address-check', 'named', 'live');
    expect((await probeStream(server.url(kNamed))).video).toMatchObject({ codec: 'h264' });
    // The egress resolved the re-pointed name itself (a second answer), and nothing reached any refused stream name.
    expect(dns.queries.get('rebind.test')).toBeGreaterThanOrEqual(2);
    for (const [srv, k] of [
      [server, kRebound],
      [literal, kDotted],
      [literal, kLiteral],
    ] as const)
      await expect(probeStream(srv.url(k), 3000)).rejects.toThrow();
    expect(suite.fx.logs.some((l) => l.includes('output address refused') && l.includes('rebind.test → 127.0.0.1'))).toBe(true);
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
