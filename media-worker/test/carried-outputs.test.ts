/**
 * Issue 54: the destinations' RTMP connections belong to the worker and outlive the session's
 * pipeline process. A pipeline killed with -9 is replaced while every destination stays connected
 * (one publish each at the server for the whole test), and a player reads one stream whose time
 * goes on (the gap held with the last picture and silence), with the picture of the new pipeline after it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@onair/embedded';
import { testPlan, useSharedFixture } from './helpers/session-fixture.ts';
import { grabFrame, near, pixel, watchPackets, type Packet } from './helpers/stream-probe.ts';

const suite = useSharedFixture();
const { key } = suite;

/** Every publish the RTMP server was asked to take (nginx-rtmp's on_publish), by stream key. */
const publishes: string[] = [];
let gate: Server;

beforeAll(async () => {
  gate = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://gate');
    if (url.searchParams.get('call') === 'publish') publishes.push(url.searchParams.get('name') ?? '');
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
});
afterAll(() => gate?.close());

/** The longest hole between consecutive packets of one stream, in seconds of stream time. */
function longestGap(packets: readonly Packet[], stream: Packet['stream']): number {
  const times = packets.filter((p) => p.stream === stream).map((p) => p.pts);
  let gap = 0;
  for (let i = 1; i < times.length; i++) gap = Math.max(gap, times[i]! - times[i - 1]!);
  return gap;
}

describe('carried outputs', () => {
  it('keeps every destination connected through a pipeline process killed with -9 and through a new output profile: one publish each, the stream time goes on', async () => {
    const server = await suite.fx.rtmp({ onPublishUrl: `http://127.0.0.1:${(gate.address() as AddressInfo).port}/on_publish` });
    const [kA, kB] = [key(), key()];
    const url = `rtmp://127.0.0.1:${server.port}/live`;
    const sessionId = `carried-${Date.now()}`;
    const plan = testPlan([
      { id: 'a', url, key: kA },
      { id: 'b', url, key: kB },
    ]);
    const supervisor = suite.fx.host.startSession({ sessionId, planVersion: 1, plan });
    const watch = watchPackets(server.url(kA));
    try {
      await suite.fx.waitForOutput(sessionId, 'a', 'live');
      await suite.fx.waitForOutput(sessionId, 'b', 'live');
      // Two seconds of stream read before the kill.
      await waitFor(
        'the reader to read the stream',
        async () => (watch.packets.filter((p) => p.stream === 'video').length > 60 ? true : undefined),
        20_000,
        50,
      );
      const crashedPid = supervisor.pid!;
      const killedAt = Date.now();
      const readBefore = watch.packets.length;
      process.kill(crashedPid, 'SIGKILL');
      await waitFor(
        'a new pipeline process playing',
        async () => (supervisor.pid !== crashedPid && supervisor.current === 'running' ? true : undefined),
        30_000,
        50,
      );
      // Three seconds of stream read after the new pipeline plays.
      const readAfter = watch.packets.length;
      await waitFor('the stream after the new pipeline', async () => (watch.packets.length > readAfter + 150 ? true : undefined), 20_000, 50);
      // A new output profile: a new pipeline process too, the same connections.
      const rebuiltPid = supervisor.pid!;
      suite.fx.host.applyPlan(sessionId, 2, { ...plan, profile: { ...plan.profile, videoBitrateKbps: plan.profile.videoBitrateKbps + 200 } });
      await waitFor(
        'the rebuilt pipeline playing',
        async () => (supervisor.pid !== rebuiltPid && supervisor.current === 'running' ? true : undefined),
        30_000,
        50,
      );
      const readRebuilt = watch.packets.length;
      await waitFor('the stream after the rebuilt pipeline', async () => (watch.packets.length > readRebuilt + 150 ? true : undefined), 20_000, 50);
      const packets = [...watch.packets];
      watch.stop();

      expect(supervisor.restarts).toBe(1);
      // One publish per destination for the whole test: the platform saw one stream, never a new one.
      expect(publishes.filter((k) => k === kA)).toHaveLength(1);
      expect(publishes.filter((k) => k === kB)).toHaveLength(1);
      // Neither destination left 'live' nor reconnected.
      const after = suite.fx.reports.filter((r) => r.sessionId === sessionId && r.at >= killedAt && r.report.type === 'outputStatus');
      expect(after.map((r) => r.report)).toEqual([]);
      await waitFor('stats of the new pipeline', async () => (supervisor.stats?.outputs.length === 2 ? true : undefined), 10_000, 50);
      expect(supervisor.stats?.outputs.map((o) => [o.id, o.state, o.reconnects])).toEqual([
        ['a', 'live', 0],
        ['b', 'live', 0],
      ]);
      // The reader read through the gap: its stream time never stood still for more than a second
      // (measured on the stream's own timestamps), and it went forward.
      const gapVideo = longestGap(packets, 'video');
      const gapAudio = longestGap(packets, 'audio');
      const video = packets.filter((p) => p.stream === 'video').map((p) => p.pts);
      console.warn(
        `carried: ${packets.length - readBefore} packets after the kill; held ${suite.fx.host.gapsFilled(sessionId).join(', ')} ms of stream; longest stream-time gap video ${gapVideo.toFixed(3)} s, audio ${gapAudio.toFixed(3)} s`,
      );
      expect(packets.length).toBeGreaterThan(readBefore + 150);
      expect(gapVideo).toBeLessThanOrEqual(1);
      expect(gapAudio).toBeLessThanOrEqual(1);
      expect(video.every((t, i) => i === 0 || t >= video[i - 1]!)).toBe(true);
      // The picture goes on: the new pipeline's program (its red layer) on the other destination.
      const frame = await grabFrame(server.url(kB), 854, 480, 5);
      expect(near(pixel(frame, 180, 160), [255, 0, 0])).toBe(true);
    } finally {
      watch.stop();
      await suite.fx.host.stopSession(sessionId);
    }
  });
});
