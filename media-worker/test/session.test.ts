/**
 * The session as the worker drives it: plan updates reach the picture, a crashed pipeline process
 * is restarted without touching another session, outputs that cannot connect or stay down fail
 * with a reason.
 */
import { describe, expect, it } from 'vitest';
import { waitFor } from '@onair/embedded';
import { freePort } from '@onair/embedded';
import { HEIGHT, testPlan, useSharedFixture, WIDTH } from './helpers/session-fixture.ts';
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import pino from 'pino';
import { Registry } from 'prom-client';
import { renderPlanSchema, type PipelineReport } from '@onair/protocol';
import { SessionHost } from '../src/session/session-host.ts';
import { grabFrame, near, pixel, probeStream, readAudioLevels } from './helpers/stream-probe.ts';

const RED = [255, 0, 0];
const BLACK = [0, 0, 0];
const suite = useSharedFixture();
const { keys, key } = suite;

describe('session', () => {
  it('moves a layer when a new plan version is applied', async () => {
    const server = await suite.fx.rtmp();
    const k = key();
    const outputs = [{ id: 'main', url: `rtmp://127.0.0.1:${server.port}/live`, key: k }];
    suite.fx.host.startSession({ sessionId: 'move', planVersion: 1, plan: testPlan(outputs, { x: 100, y: 100 }) });
    await suite.fx.waitForOutput('move', 'main', 'live');

    const before = await grabFrame(server.url(k), WIDTH, HEIGHT);
    expect(near(pixel(before, 180, 160), RED)).toBe(true);
    expect(near(pixel(before, 580, 360), BLACK)).toBe(true);

    const sent = Date.now();
    suite.fx.host.applyPlan('move', 2, testPlan(outputs, { x: 500, y: 300 }));
    await suite.fx.waitForReport('move', 'planApplied', (r) => r.version === 2, 5000, sent);
    // A new reader starts at the next keyframe (≤ 2 s later), so the frame is after the change.
    const after = await grabFrame(server.url(k), WIDTH, HEIGHT);
    expect(near(pixel(after, 580, 360), RED)).toBe(true);
    expect(near(pixel(after, 180, 160), BLACK)).toBe(true);
    await suite.fx.host.stopSession('move');
  });

  it('switches scenes live: an image shown only in the second scene, a layer only in the first', async () => {
    const server = await suite.fx.rtmp();
    const k = key();
    const png = join(suite.fx.dir, 'blue.png');
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'color=c=0x0000ff:s=64x64', '-frames:v', '1', png]);
    const outputs = [{ id: 'main', url: `rtmp://127.0.0.1:${server.port}/live`, key: k }];
    const base = testPlan(outputs);
    const scenes = (activeSceneId: string) =>
      renderPlanSchema.parse({
        ...base,
        inputs: [...base.inputs, { id: 'slate', kind: 'image', path: png }],
        scenes: [...base.scenes, { id: 'second', placements: [{ inputId: 'slate', x: 400, y: 240, width: 200, height: 100, zorder: 0 }] }],
        activeSceneId,
      });
    suite.fx.host.startSession({ sessionId: 'scenes', planVersion: 1, plan: scenes('main') });
    await suite.fx.waitForOutput('scenes', 'main', 'live');
    const first = await grabFrame(server.url(k), WIDTH, HEIGHT);
    expect(near(pixel(first, 180, 160), RED)).toBe(true);
    expect(near(pixel(first, 500, 290), BLACK)).toBe(true);

    const pid = suite.fx.host.session('scenes')?.pid;
    const sent = Date.now();
    suite.fx.host.applyPlan('scenes', 2, scenes('second'));
    await suite.fx.waitForReport('scenes', 'planApplied', (r) => r.version === 2, 5000, sent);
    const second = await grabFrame(server.url(k), WIDTH, HEIGHT);
    expect(near(pixel(second, 500, 290), [0, 0, 255])).toBe(true);
    expect(near(pixel(second, 180, 160), BLACK)).toBe(true);
    // Same process, same connection: a scene switch is pad properties only.
    expect(suite.fx.host.session('scenes')?.pid).toBe(pid);
    expect(suite.fx.host.session('scenes')?.stats?.outputs[0]).toMatchObject({ state: 'live', reconnects: 0 });
    await suite.fx.host.stopSession('scenes');
  });

  it('fades a source out over about a second when the scene that shows it is switched away', async () => {
    const server = await suite.fx.rtmp();
    const k = key();
    const outputs = [{ id: 'main', url: `rtmp://127.0.0.1:${server.port}/live`, key: k }];
    const base = testPlan(outputs);
    // The tone of `bars` is heard in `main`; `quiet` shows only the red layer.
    const withScene = (activeSceneId: string) =>
      renderPlanSchema.parse({ ...base, scenes: [...base.scenes, { id: 'quiet', placements: [base.scenes[0]!.placements[1]!] }], activeSceneId });
    suite.fx.host.startSession({ sessionId: 'fade', planVersion: 1, plan: withScene('main') });
    await suite.fx.waitForOutput('fade', 'main', 'live');
    const recording = readAudioLevels(server.url(k), 5);
    await new Promise((r) => setTimeout(r, 2000));
    suite.fx.host.applyPlan('fade', 2, withScene('quiet'));
    const levels = await recording;

    // `end`: the first window after which the tone stays under 5 % for good; `start`: the last
    // window before it still at 90 % or more. An instant cut spans one or two 50 ms windows.
    const loud = Math.max(...levels);
    expect(loud).toBeGreaterThan(0.05);
    let end = levels.length - 1;
    while (end > 0 && levels[end - 1]! < loud * 0.05) end--;
    let start = end;
    while (start > 0 && levels[start]! < loud * 0.9) start--;
    expect(end).toBeLessThan(levels.length - 10);
    const fadeMs = (end - start) * 50;
    // From 90 % down to 5 % of the amplitude is most of a 1000 ms ease-in-out.
    expect(fadeMs).toBeGreaterThanOrEqual(400);
    expect(fadeMs).toBeLessThanOrEqual(1300);
    await suite.fx.host.stopSession('fade');
  });

  it('shows an RTP input in whichever codec arrives (VP8, then H.264), and its placeholder while none does', async () => {
    const server = await suite.fx.rtmp();
    const k = key();
    const [vp8Port, h264Port, audioPort] = [await freePort(), await freePort(), await freePort()];
    const placeholder = join(suite.fx.dir, 'offline.png');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0xFF00FF:s=64x36', '-frames:v', '1', placeholder]);
    const outputs = [{ id: 'main', url: `rtmp://127.0.0.1:${server.port}/live`, key: k }];
    const base = testPlan(outputs);
    suite.fx.host.startSession({
      sessionId: 'rtp',
      planVersion: 1,
      plan: renderPlanSchema.parse({
        ...base,
        inputs: [
          ...base.inputs,
          {
            id: 'guest',
            kind: 'rtp',
            video: {
              codecs: [
                { encoding: 'VP8', port: vp8Port, payloadType: 96 },
                { encoding: 'H264', port: h264Port, payloadType: 102 },
              ],
              placeholder,
            },
            audio: { port: audioPort, encoding: 'OPUS', payloadType: 111 },
          },
        ],
        scenes: [{ id: 'main', placements: [...base.scenes[0]!.placements, { inputId: 'guest', x: 400, y: 300, width: 160, height: 120, zorder: 5 }] }],
      }),
    });
    await suite.fx.waitForOutput('rtp', 'main', 'live');
    const layerShows = (colour: number[], what: string) =>
      waitFor(
        what,
        async () => {
          const frame = await grabFrame(server.url(k), WIDTH, HEIGHT);
          return near(pixel(frame, 480, 360), colour, 60) ? true : undefined;
        },
        30_000,
        200,
      );
    await layerShows([255, 0, 255], 'the placeholder before any packet');
    // What the WebRTC endpoint forwards: a green VP8 picture and an Opus tone, as RTP.
    const vp8 = spawn(
      'gst-launch-1.0',
      [
        '-q',
        ...`videotestsrc is-live=true pattern=solid-color foreground-color=0xff00ff00 ! video/x-raw,width=160,height=120,framerate=30/1 ! vp8enc deadline=1 keyframe-max-dist=15 ! rtpvp8pay pt=96 ! udpsink host=127.0.0.1 port=${vp8Port}`.split(
          ' ',
        ),
        ...`audiotestsrc is-live=true wave=sine ! audioconvert ! opusenc ! rtpopuspay pt=111 ! udpsink host=127.0.0.1 port=${audioPort}`.split(' '),
      ],
      { stdio: 'ignore' },
    );
    try {
      await layerShows([0, 255, 0], 'the VP8 picture in the program');
    } finally {
      vp8.kill('SIGKILL');
    }
    await layerShows([255, 0, 255], 'the placeholder once the track stopped');
    // The same source, now in H.264 as a browser with a hardware encoder sends it.
    const h264 = spawn(
      'gst-launch-1.0',
      [
        '-q',
        ...`videotestsrc is-live=true pattern=solid-color foreground-color=0xff0000ff ! video/x-raw,width=160,height=120,framerate=30/1 ! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=15 ! video/x-h264,profile=constrained-baseline ! rtph264pay pt=102 config-interval=-1 ! udpsink host=127.0.0.1 port=${h264Port}`.split(
          ' ',
        ),
      ],
      { stdio: 'ignore' },
    );
    try {
      await layerShows([0, 0, 255], 'the H.264 picture in the program');
    } finally {
      h264.kill('SIGKILL');
    }
    expect(suite.fx.reports.filter((r) => r.sessionId === 'rtp' && r.report.type === 'error')).toEqual([]);
    expect(suite.fx.host.session('rtp')?.restarts).toBe(0);
    await suite.fx.host.stopSession('rtp');
  });

  it('asks for a keyframe when an RTP input loses packets before its decoder', async () => {
    const server = await suite.fx.rtmp();
    const port = await freePort();
    const base = testPlan([{ id: 'main', url: `rtmp://127.0.0.1:${server.port}/live`, key: key() }]);
    const started = Date.now();
    suite.fx.host.startSession({
      sessionId: 'lossy',
      planVersion: 1,
      plan: renderPlanSchema.parse({
        ...base,
        inputs: [...base.inputs, { id: 'lossy', kind: 'rtp', video: { codecs: [{ encoding: 'VP8', port, payloadType: 96 }] } }],
      }),
    });
    await suite.fx.waitForOutput('lossy', 'main', 'live');
    // One packet in ten never arrives.
    const sender = spawn(
      'gst-launch-1.0',
      [
        '-q',
        ...`videotestsrc is-live=true ! video/x-raw,width=320,height=180,framerate=30/1 ! vp8enc deadline=1 keyframe-max-dist=60 ! rtpvp8pay pt=96 mtu=400 ! identity drop-probability=0.1 ! udpsink host=127.0.0.1 port=${port}`.split(
          ' ',
        ),
      ],
      { stdio: 'ignore' },
    );
    try {
      await suite.fx.waitForReport('lossy', 'keyframeWanted', (r) => r.inputId === 'lossy', 15_000, started);
    } finally {
      sender.kill('SIGKILL');
    }
    await suite.fx.host.stopSession('lossy');
  });

  it('reports a broken source and keeps the program going', async () => {
    const server = await suite.fx.rtmp();
    const k = key();
    const outputs = [{ id: 'main', url: `rtmp://127.0.0.1:${server.port}/live`, key: k }];
    const base = testPlan(outputs);
    const started = Date.now();
    suite.fx.host.startSession({
      sessionId: 'broken-source',
      planVersion: 1,
      plan: renderPlanSchema.parse({
        ...base,
        inputs: [...base.inputs, { id: 'missing', kind: 'image', path: join(suite.fx.dir, 'no-such-file.png') }],
        scenes: [{ id: 'main', placements: [...base.scenes[0]!.placements, { inputId: 'missing', x: 0, y: 0, width: 100, height: 100, zorder: 9 }] }],
      }),
    });
    const failure = await suite.fx.waitForReport('broken-source', 'error', (r) => r.code === 'INPUT_FAILED', 10_000, started);
    expect(failure.fatal).toBe(false);
    expect(failure.message).toContain('missing');
    await suite.fx.waitForOutput('broken-source', 'main', 'live');
    const frame = await grabFrame(server.url(k), WIDTH, HEIGHT);
    expect(near(pixel(frame, 180, 160), RED)).toBe(true);
    expect(suite.fx.host.session('broken-source')?.restarts).toBe(0);
    await suite.fx.host.stopSession('broken-source');
  });

  it('rebuilds the pipeline when a plan changes the output profile', async () => {
    const server = await suite.fx.rtmp();
    const k = key();
    const outputs = [{ id: 'main', url: `rtmp://127.0.0.1:${server.port}/live`, key: k }];
    const supervisor = suite.fx.host.startSession({ sessionId: 'resize', planVersion: 1, plan: testPlan(outputs) });
    try {
      await suite.fx.waitForOutput('resize', 'main', 'live');
      const firstPid = supervisor.pid;
      const base = testPlan(outputs);
      const sent = Date.now();
      suite.fx.host.applyPlan('resize', 2, { ...base, profile: { ...base.profile, width: 640, height: 360 } });
      // (The old process stops before the new one starts, which takes far longer than a look here.)
      await waitFor('the pipeline process to be replaced', async () => (supervisor.pid !== firstPid ? true : undefined), 20_000, 20);
      await waitFor('the new pipeline playing', async () => (supervisor.current === 'running' ? true : undefined), 20_000, 20);
      expect(supervisor.restarts).toBe(0);
      // The same connection carries the new profile (issue 54): its new sequence header, no new publish.
      await waitFor(
        'the new size at the destination',
        async () => ((await probeStream(server.url(k)).catch(() => undefined))?.video.width === 640 ? true : undefined),
        20_000,
        200,
      );
      expect((await probeStream(server.url(k))).video).toMatchObject({ width: 640, height: 360 });
      expect(suite.fx.reports.filter((r) => r.sessionId === 'resize' && r.at >= sent && r.report.type === 'outputStatus')).toEqual([]);
    } finally {
      await suite.fx.host.stopSession('resize');
    }
  });

  it('rebuilds once for two plans that change the output profile back to back (one process, one connection)', async () => {
    const server = await suite.fx.rtmp();
    const k = key();
    const outputs = [{ id: 'main', url: `rtmp://127.0.0.1:${server.port}/live`, key: k }];
    const base = testPlan(outputs);
    const supervisor = suite.fx.host.startSession({ sessionId: 'twice', planVersion: 1, plan: base });
    await suite.fx.waitForOutput('twice', 'main', 'live');
    const sent = Date.now();
    const more = (n: number) => renderPlanSchema.parse({ ...base, profile: { ...base.profile, videoBitrateKbps: base.profile.videoBitrateKbps + 100 * n } });
    // A new profile in one patch and the studio's next patch a moment later, both while the old process stops.
    const firstPid = supervisor.pid;
    suite.fx.host.applyPlan('twice', 2, more(1));
    suite.fx.host.applyPlan('twice', 3, more(2));
    await waitFor('the new pipeline playing', async () => (supervisor.pid !== firstPid && supervisor.current === 'running' ? true : undefined), 20_000, 20);
    await new Promise((r) => setTimeout(r, 4000));
    // A second process would have published the same stream and been refused by the server.
    expect(suite.fx.reports.filter((r) => r.sessionId === 'twice' && r.at >= sent && r.report.type === 'outputStatus' && r.report.state === 'failed')).toEqual(
      [],
    );
    expect(supervisor.stats?.outputs.find((o) => o.id === 'main')?.state).toBe('live');
    await suite.fx.host.stopSession('twice');
  });

  it("waits out a platform's handover after a rebuild: a continuing output refused 'Already publishing' reconnects, and goes live once the old publisher is gone", async () => {
    const server = await suite.fx.rtmp();
    const [kFirst, kHeld] = [key(), key()];
    const url = `rtmp://127.0.0.1:${server.port}/live`;
    // What the platform sees after a rebuild: the new process publishes while the server still holds
    // a publisher on the key. Here another encoder holds it, and the rebuilt plan points the same
    // output at that key.
    // biome-ignore format: the arguments stay in option-value pairs, as ffmpeg reads them
    const squatter = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'color=c=blue:s=320x180:r=15', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '15', '-c:a', 'aac', '-f', 'flv', `${url}/${kHeld}`], { stdio: 'ignore' });
    try {
      await waitFor(
        'the other publisher',
        async () =>
          await probeStream(server.url(kHeld))
            .then(() => true)
            .catch(() => undefined),
        15_000,
        200,
      );
      const base = testPlan([{ id: 'main', url, key: kFirst }]);
      const supervisor = suite.fx.host.startSession({
        sessionId: 'handover',
        planVersion: 1,
        plan: base,
        outputPolicy: { backoffMs: [300, 600], stallAfterMs: 5000, giveUpAfterMs: 60_000 },
      });
      await suite.fx.waitForOutput('handover', 'main', 'live');
      const firstPid = supervisor.pid;
      const sent = Date.now();
      suite.fx.host.applyPlan('handover', 2, { ...base, profile: { ...base.profile, width: 640, height: 360 }, outputs: [{ id: 'main', url, key: kHeld }] });
      const refused = await suite.fx.waitForOutput('handover', 'main', 'reconnecting', 20_000, sent);
      // nginx-rtmp answers 'Already publishing': the refusal names that cause (issue 51), not the key.
      expect(refused.errorCode).toBe('DESTINATION_IN_USE');
      await waitFor('the pipeline process to be replaced', async () => (supervisor.pid !== firstPid ? true : undefined), 20_000, 20);
      squatter.kill('SIGKILL');
      await suite.fx.waitForOutput('handover', 'main', 'live', 20_000, sent);
      expect(
        suite.fx.reports.filter((r) => r.sessionId === 'handover' && r.at >= sent && r.report.type === 'outputStatus' && r.report.state === 'failed'),
      ).toEqual([]);
      await waitFor(
        'the new size at the destination',
        async () => ((await probeStream(server.url(kHeld)).catch(() => undefined))?.video.width === 640 ? true : undefined),
        20_000,
        200,
      );
      await suite.fx.host.stopSession('handover');
    } finally {
      squatter.kill('SIGKILL');
    }
  });

  it('restarts a crashed pipeline process and leaves the other session alone', async () => {
    const server = await suite.fx.rtmp();
    const [kA, kB] = [key(), key()];
    const url = `rtmp://127.0.0.1:${server.port}/live`;
    // Their own names per attempt, and stopped whatever happens: a retry must find no session of the
    // attempt before it (one found 'session crashes already runs here' after its first attempt timed out).
    const attempt = randomUUID().slice(0, 8);
    const [crashes, bystander] = [`crashes-${attempt}`, `bystander-${attempt}`];
    const a = suite.fx.host.startSession({ sessionId: crashes, planVersion: 1, plan: testPlan([{ id: 'out', url, key: kA }]) });
    const b = suite.fx.host.startSession({ sessionId: bystander, planVersion: 1, plan: testPlan([{ id: 'out', url, key: kB }]) });
    try {
      await suite.fx.waitForOutput(crashes, 'out', 'live');
      await suite.fx.waitForOutput(bystander, 'out', 'live');
      const crashedPid = a.pid!;
      const bystanderPid = b.pid;
      const framesBefore = b.stats?.framesOut ?? 0;

      const killedAt = Date.now();
      process.kill(crashedPid, 'SIGKILL');
      const crash = await suite.fx.waitForReport(crashes, 'error', (r) => r.code === 'PIPELINE_CRASHED', 5000, killedAt);
      expect(crash.fatal).toBe(false);
      await waitFor('a new pipeline process', async () => (a.pid !== undefined && a.pid !== crashedPid && a.current === 'running' ? true : undefined), 20_000);
      expect(a.restarts).toBe(1);
      // Its output stayed connected through the crash (issue 54, carried-outputs.test.ts).
      expect(suite.fx.reports.filter((r) => r.sessionId === crashes && r.at >= killedAt && r.report.type === 'outputStatus')).toEqual([]);

      expect(b.pid).toBe(bystanderPid);
      expect(suite.fx.reports.filter((r) => r.sessionId === bystander && r.at >= killedAt && r.report.type === 'error')).toEqual([]);
      await waitFor('bystander frames', async () => ((b.stats?.framesOut ?? 0) > framesBefore + 30 ? true : undefined), 5000);
    } finally {
      await Promise.all([suite.fx.host.stopSession(crashes), suite.fx.host.stopSession(bystander)]);
    }
  });

  it('fails fast on an unreachable destination and gives up on one that stays down', async () => {
    const server = await suite.fx.rtmp();
    const closedPort = await freePort();
    const [kGone, kNowhere] = [key(), key()];
    // Its own name per attempt, and stopped whatever happens: a retry must find no session of the attempt before it.
    const id = `failures-${randomUUID().slice(0, 8)}`;
    suite.fx.host.startSession({
      sessionId: id,
      planVersion: 1,
      plan: testPlan([
        { id: 'gone', url: `rtmp://127.0.0.1:${server.port}/live`, key: kGone },
        { id: 'nowhere', url: `rtmp://127.0.0.1:${closedPort}/live`, key: kNowhere },
      ]),
      outputPolicy: { backoffMs: [300], stallAfterMs: 3000, giveUpAfterMs: 2500 },
    });
    try {
      const nowhere = await suite.fx.waitForOutput(id, 'nowhere', 'failed');
      expect(nowhere.errorCode).toBe('DESTINATION_UNREACHABLE');
      expect(nowhere.reason).toMatch(/server address/);
      await suite.fx.waitForOutput(id, 'gone', 'live');

      await server.stop({ abrupt: true });
      const gone = await suite.fx.waitForOutput(id, 'gone', 'failed', 15_000);
      expect(gone.errorCode).toBe('DESTINATION_LOST');
      const supervisor = suite.fx.host.session(id);
      await waitFor('stats after give-up', async () => (supervisor?.stats?.outputs.find((o) => o.id === 'gone')?.state === 'failed' ? true : undefined), 3000);
      expect(supervisor?.current).toBe('running');
      // The program goes on at its rate. (The first report after the give-up can still cover the
      // moment the lost connection held the pipeline: one run on a loaded machine read 0 fps there.)
      const fpsAfter = supervisor?.stats?.fps;
      await waitFor(
        `the program at its rate after the give-up (first report: ${fpsAfter} fps)`,
        async () => ((supervisor?.stats?.fps ?? 0) > 20 ? true : undefined),
        10_000,
      );
      expect(supervisor?.current).toBe('running');
      expect(supervisor?.restarts).toBe(0);
    } finally {
      await suite.fx.host.stopSession(id);
    }
  });

  it('kills and replaces a pipeline process that does not start in time, then gives up', async () => {
    const reports: PipelineReport[] = [];
    // A start timeout no real child can meet plays the child stuck while loading.
    const host = new SessionHost({
      logger: pino({ level: 'silent' }),
      redis: suite.fx.redis,
      metrics: new Registry(),
      supervisor: { onLogLine: () => {}, startTimeoutMs: 1, restartDelaysMs: [50], maxCrashes: 2 },
      onReport: (_id, report) => reports.push(report),
    });
    const supervisor = host.startSession({ sessionId: 'stuck', planVersion: 1, plan: testPlan([]) });
    await waitFor('the session given up', async () => (supervisor.current === 'failed' ? true : undefined), 20_000);
    const crashes = reports.filter((r) => r.type === 'error' && r.code === 'PIPELINE_CRASHED');
    expect(crashes).toHaveLength(3);
    expect(crashes.at(-1)).toMatchObject({ fatal: true });
    await host.stopAll();
  });

  it('never writes a stream key in a log line', () => {
    expect(suite.fx.logs.length).toBeGreaterThan(20);
    for (const k of keys) expect(suite.fx.logs.filter((line) => line.includes(k))).toEqual([]);
  });
});
