// Ingest and Auto Live on real processes: the one-machine stack (api, media worker, render worker,
// the nginx-rtmp ingest and the local destination, as `./onair start` runs them) with ffmpeg
// publishing a test stream the way an encoder or a console does. With Auto Live on, the feed
// starts the broadcast to the local destination, whose frames show the game source (a solid green
// picture: the pixel probe); a stop shorter than the grace period keeps the broadcast, a longer one
// ends it. Wrong keys, a second encoder, a stalled encoder and an unsupported codec are refused or
// reported without disturbing anything else.
import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startStack, waitFor, type RunningStack } from '@onair/embedded';
import { createTestDatabase, isolatedRedisUrl, runSql, StackClient, type TestDatabase } from '@onair/embedded/test-services';
import type { BroadcastView, DestinationView, IngestView, LocalStream, SceneDocument } from '@onair/protocol';
import { SecretBox } from '@onair/runtime';
import { MediaStreamTrack, RTCPeerConnection, RTCRtpCodecParameters } from 'werift';
import { grabFrame, near, pixel, type Frame } from './helpers/stream-probe.ts';

const WIDTH = 854;
const HEIGHT = 480;
// Each flow publishes its own colour: every project pushes to the one local destination, so a
// colour tells whose frames arrive.
const GREEN = [0, 255, 0];
const BLUE = [0, 0, 255];
const YELLOW = [255, 255, 0];
const CYAN = [0, 255, 255];
const MAGENTA = [255, 0, 255];
const hex = (rgb: readonly number[]) => `0x${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
// Long enough that a stop, the offline picture and a restart fit in it on a busy machine.
const GRACE_SECONDS = 15;
const secretsKey = SecretBox.generateKey();

let stack: RunningStack;
let database: TestDatabase;
let dataDir: string;
let client: StackClient;
const publishers: ChildProcess[] = [];
const logs: string[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'onair-ingest-'));
  database = await createTestDatabase({ migrate: false });
  stack = await startStack({
    dataDir,
    port: 0,
    databaseUrl: database.url,
    redisUrl: await isolatedRedisUrl(),
    env: {
      SECRETS_KEY: secretsKey,
      LOG_LEVEL: 'info',
      INGEST_GRACE_SECONDS: String(GRACE_SECONDS),
      INGEST_SWEEP_MS: '200',
      // The byte watchdog of the ingest server: a publisher silent this long is dropped.
      INGEST_IDLE_PUBLISHER_SECONDS: '3',
      SESSION_IDLE_MS: '3000',
      // Room for a session still ending while the next flow's starts (480p sessions, test load).
      WORKER_CORES: '4',
      // Twitch destinations are offered only with an OAuth client; nothing here calls Twitch.
      TWITCH_CLIENT_ID: 'ingest-test-client',
      TWITCH_CLIENT_SECRET: 'ingest-test-secret',
    },
    log: (source, line) => logs.push(`[${source}] ${line}`),
  });
  client = new StackClient(stack.url);
  await client.signIn(`ingest-${Date.now()}@example.test`);
}, 120_000);

// A flow that failed half-way leaves no encoder behind to feed the next one, and no broadcast:
// every project pushes to the one local destination, which refuses a second publisher on its key
// ('Already publishing'), so a broadcast left live (an Auto Live one waits out its grace period)
// would fail the next flow's output.
const projectIds: string[] = [];
afterEach(async () => {
  for (const p of publishers) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  for (const id of projectIds.splice(0)) {
    const broadcast = await broadcastOf(id);
    if (!broadcast || broadcast.state === 'ended' || broadcast.state === 'failed') continue;
    await client.must('POST', `/api/v1/projects/${id}/broadcast/end`);
    await waitFor(
      `project ${id}'s broadcast to end`,
      async () => (['ended', 'failed'].includes((await broadcastOf(id))?.state ?? 'ended') ? true : undefined),
      30_000,
      100,
    );
  }
}, 60_000);

afterAll(async () => {
  for (const p of publishers) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  if (process.env.INGEST_DEBUG) process.stdout.write(logs.join('\n'));
  await stack?.stop();
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** ffmpeg as an encoder: a solid colour and a tone, H.264 (1 s GOP, no B-frames) + AAC over RTMP. */
function publish(url: string, options: { colour?: readonly number[]; codec?: 'h264' | 'flv1' } = {}): ChildProcess {
  const video =
    options.codec === 'flv1'
      ? ['-c:v', 'flv', '-b:v', '800k']
      : ['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '30', '-bf', '0', '-pix_fmt', 'yuv420p', '-b:v', '1500k'];
  // biome-ignore format: the arguments stay in option-value pairs, as ffmpeg reads them
  const child = spawn('ffmpeg', [
    '-hide_banner', '-loglevel', 'error', '-re',
    '-f', 'lavfi', '-i', `color=c=${hex(options.colour ?? GREEN)}:s=1280x720:r=30`,
    '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000',
    ...video, '-c:a', 'aac', '-ar', '48000', '-b:a', '128k',
    '-f', 'flv', url,
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  publishers.push(child);
  return child;
}

async function stopPublisher(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGCONT');
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

async function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

interface Project {
  id: string;
  ingest: IngestView;
  /** Where its Local destination can be watched (its own stream name). */
  localUrl: string;
}

/**
 * A project at 480p whose active scene is the game source over the whole canvas, with the local
 * destination and a Twitch destination (Auto Live needs one enabled), Auto Live on.
 */
async function consoleProject(twitchKey?: string): Promise<Project> {
  const { id } = await client.must<{ id: string }>('POST', '/api/v1/projects', { name: `Console ${randomUUID().slice(0, 8)}` });
  const base = `/api/v1/projects/${id}`;
  const doc = await client.must<SceneDocument>('GET', `${base}/scene`);
  const gameId = randomUUID();
  await client.must('PATCH', `${base}/scene`, {
    baseVersion: doc.version,
    ops: [
      { op: 'setResolution', resolution: '480p' },
      { op: 'addSource', source: { id: gameId, kind: 'game', name: 'Game Source' } },
      { op: 'addLayer', sceneId: doc.activeSceneId, layer: { id: randomUUID(), sourceId: gameId, x: 0, y: 0, width: 1280, height: 720 } },
    ],
  });
  const local = await client.must<DestinationView>('POST', `${base}/destinations`, { type: 'Local' });
  const { playUrl: localUrl } = await client.must<LocalStream>('GET', `${base}/destinations/${local.id}/local-stream`);
  const twitch = await client.must<DestinationView>('POST', `${base}/destinations`, { type: 'Twitch', settings: { title: 'Console' } });
  if (twitchKey) {
    // The key Twitch gave this channel, as preparing a broadcast stores it (sealed with the stack's key).
    await runSql(stack.databaseUrl, 'UPDATE destinations SET stream_key_enc = $1, rtmp_url = $2 WHERE id = $3', [
      new SecretBox(secretsKey).seal(twitchKey, `${twitch.id}:streamKey`),
      'rtmp://live.twitch.tv/app',
      twitch.id,
    ]);
  }
  const ingest = await client.must<IngestView>('PUT', `${base}/auto-live`, { enabled: true });
  projectIds.push(id);
  return { id, ingest, localUrl };
}

async function broadcastOf(projectId: string): Promise<BroadcastView | null> {
  return (await client.must<{ broadcast: BroadcastView | null }>('GET', `/api/v1/projects/${projectId}/broadcast`)).broadcast;
}

async function ingestOf(projectId: string): Promise<IngestView> {
  return client.must<IngestView>('GET', `/api/v1/projects/${projectId}/ingest`);
}

const ingestUrl = (app: string, key: string) => `rtmp://127.0.0.1:${stack.ingest.port}/${app}/${key}`;
const shows = (frame: Frame, colour: readonly number[]) =>
  [
    [WIDTH / 2, HEIGHT / 2],
    [40, 40],
    [WIDTH - 40, HEIGHT - 40],
  ].every(([x, y]) => near(pixel(frame, x!, y!), colour, 60));

/** Waits until the local destination's frames show the feed of this colour (or, with `shown` false, no longer do). */
async function outputShowsGame(project: Project, colour: readonly number[], shown: boolean, what: string): Promise<Frame> {
  return waitFor(
    what,
    async () => {
      const frame = await grabFrame(project.localUrl, WIDTH, HEIGHT, 5).catch(() => undefined);
      return frame && shows(frame, colour) === shown ? frame : undefined;
    },
    45_000,
    200,
  );
}

describe('RTMP ingest with Auto Live', () => {
  it('starts the broadcast when an encoder publishes, keeps it through a short stop, and ends it after the grace period', async () => {
    const project = await consoleProject();
    expect(project.ingest.serverUrl).toBe(`rtmp://localhost:${stack.ingest.port}/ingest`);
    expect(await broadcastOf(project.id)).toBeNull();

    let encoder = publish(ingestUrl('ingest', project.ingest.streamKey));
    // The first packet: the moment the ingest accepted the publish (ffmpeg sends as soon as it may).
    await waitFor('the ingest to receive', async () => ((await ingestOf(project.id)).status.state === 'receiving' ? true : undefined), 30_000, 50);
    const firstPacket = performance.now();
    const live = await waitFor(
      'the broadcast to go live',
      async () => ((await broadcastOf(project.id))?.state === 'live' ? await broadcastOf(project.id) : undefined),
      30_000,
      100,
    );
    // The local destination receives once the session's output to it is live (bytes flowing), as the pipeline reports it.
    await waitFor(
      'the local destination to receive',
      async () => ((await broadcastOf(project.id))?.outputs.some((o) => o.state === 'live') ? true : undefined),
      30_000,
      50,
    );
    const receivingAfterMs = performance.now() - firstPacket;
    await outputShowsGame(project, GREEN, true, 'the output to show the game feed');
    const showingAfterMs = performance.now() - firstPacket;
    process.stdout.write(
      `ingest: first packet → local destination receiving ${receivingAfterMs.toFixed(0)} ms, → game feed seen in its frames ${showingAfterMs.toFixed(0)} ms\n`,
    );

    const ingest = await ingestOf(project.id);
    expect(ingest.status).toMatchObject({ state: 'receiving', via: 'encoder' });
    expect(ingest.feed).toMatchObject({ state: 'flowing', videoCodec: 'h264', audioCodec: 'aac', width: 1280, height: 720 });
    expect(ingest.feed!.bitrateKbps).toBeGreaterThan(0);

    // Stopped and back within the grace period: the same broadcast goes on.
    await stopPublisher(encoder);
    await waitFor('the ingest to report the drop', async () => ((await ingestOf(project.id)).status.state === 'dropped' ? true : undefined), 15_000, 100);
    // The api's grace period started at or before this moment.
    const dropSeen = performance.now();
    await outputShowsGame(project, GREEN, false, "the output to show 'Game Source Offline' while nothing arrives");
    encoder = publish(ingestUrl('ingest', project.ingest.streamKey));
    await outputShowsGame(project, GREEN, true, 'the feed to come back');
    // A second past the end of the grace period the drop started: the broadcast went on.
    await new Promise((r) => setTimeout(r, Math.max(0, dropSeen + GRACE_SECONDS * 1000 + 1000 - performance.now())));
    expect(await broadcastOf(project.id)).toMatchObject({ id: live!.id, state: 'live' });

    // Stopped for longer than the grace period: the broadcast ends by itself.
    await stopPublisher(encoder);
    const stoppedAt = performance.now();
    const ended = await waitFor(
      'the broadcast to end',
      async () => ((await broadcastOf(project.id))?.state === 'ended' ? await broadcastOf(project.id) : undefined),
      30_000,
      100,
    );
    expect(ended!.id).toBe(live!.id);
    // Not before the grace period (the server may have seen the stop a moment before ffmpeg exited).
    expect(performance.now() - stoppedAt).toBeGreaterThanOrEqual(GRACE_SECONDS * 1000 - 500);
    expect((await ingestOf(project.id)).status.state).toBe('waiting');
  }, 180_000);

  it('takes a console publishing to the Twitch-shaped path with its Twitch stream key', async () => {
    const twitchKey = `live_${Date.now()}_${randomUUID().replace(/-/g, '')}`;
    const project = await consoleProject(twitchKey);
    expect(project.ingest.consoleServerUrl).toBe(`rtmp://localhost:${stack.ingest.port}/app`);
    const console_ = publish(ingestUrl('app', twitchKey), { colour: BLUE });
    await waitFor('the broadcast to go live', async () => ((await broadcastOf(project.id))?.state === 'live' ? true : undefined), 30_000, 100);
    await outputShowsGame(project, BLUE, true, 'the output to show the console feed');
    expect((await ingestOf(project.id)).status).toMatchObject({ state: 'receiving', via: 'console' });
    await stopPublisher(console_);
    await waitFor('the broadcast to end', async () => ((await broadcastOf(project.id))?.state === 'ended' ? true : undefined), 30_000, 100);
    const allLogs = logs.join('\n');
    expect(allLogs).not.toContain(twitchKey);
    expect(allLogs).not.toContain(project.ingest.streamKey);
  }, 180_000);
});

describe('bad input at the ingest', () => {
  it('refuses a wrong key at connect, and nothing starts', async () => {
    const project = await consoleProject();
    const wrong = publish(ingestUrl('ingest', 'live_ThisIsNotTheKeyOfAnyProject0123'));
    expect(await exitOf(wrong)).not.toBe(0);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await broadcastOf(project.id)).toBeNull();
    expect((await ingestOf(project.id)).status.state).toBe('waiting');
    expect(logs.join('\n')).not.toContain('ThisIsNotTheKeyOfAnyProject0123');
    // Nor does the ingest server's own log hold it.
    const serverLog = await readFile(join(dataDir, 'ingest', 'error.log'), 'utf8').catch(() => '');
    expect(serverLog).not.toContain('ThisIsNotTheKeyOfAnyProject0123');
    expect(serverLog).not.toContain(project.ingest.streamKey);
  }, 180_000);

  it('refuses a second encoder on the same key and leaves the first undisturbed; a stalled encoder is dropped by the byte watchdog', async () => {
    const project = await consoleProject();
    const first = publish(ingestUrl('ingest', project.ingest.streamKey), { colour: YELLOW });
    const live = await waitFor(
      'the broadcast to go live',
      async () => ((await broadcastOf(project.id))?.state === 'live' ? await broadcastOf(project.id) : undefined),
      30_000,
      100,
    );
    await outputShowsGame(project, YELLOW, true, 'the first encoder in the output');

    const second = publish(ingestUrl('ingest', project.ingest.streamKey), { colour: [255, 0, 0] });
    expect(await exitOf(second)).not.toBe(0);
    expect(first.exitCode).toBeNull();
    await outputShowsGame(project, YELLOW, true, 'the first encoder still in the output');
    expect(await broadcastOf(project.id)).toMatchObject({ id: live!.id, state: 'live' });

    // Frozen: the connection stays open and no byte comes. The worker reports the feed stalled,
    // the ingest server drops the publisher, and the broadcast ends after the grace period.
    first.kill('SIGSTOP');
    await waitFor(
      'the feed to be reported stalled or dropped',
      async () => {
        const ingest = await ingestOf(project.id);
        return ingest.feed?.state === 'stalled' || ingest.status.state === 'dropped' ? true : undefined;
      },
      30_000,
      100,
    );
    await waitFor(
      'the ingest server to drop the stalled publisher',
      async () => ((await ingestOf(project.id)).status.state === 'dropped' ? true : undefined),
      30_000,
      100,
    );
    await waitFor('the broadcast to end', async () => ((await broadcastOf(project.id))?.state === 'ended' ? true : undefined), 30_000, 100);
    first.kill('SIGKILL');
  }, 180_000);

  it('reports a feed in an unsupported codec and keeps the program going', async () => {
    const project = await consoleProject();
    const workerPid = stack.processes.mediaWorker.pid;
    const encoder = publish(ingestUrl('ingest', project.ingest.streamKey), { codec: 'flv1', colour: CYAN });
    const ingest = await waitFor(
      'the feed to be reported unsupported',
      async () => {
        const view = await ingestOf(project.id);
        return view.feed?.state === 'unsupported' ? view : undefined;
      },
      30_000,
      100,
    );
    expect(ingest.feed).toMatchObject({ videoCodec: 'flv1' });
    // The program goes on with the offline picture: frames still reach the destination.
    const frame = await grabFrame(project.localUrl, WIDTH, HEIGHT, 5);
    expect(shows(frame, CYAN)).toBe(false);
    expect(stack.processes.mediaWorker.pid).toBe(workerPid);
    await stopPublisher(encoder);
  }, 180_000);
});

describe('WHIP ingest (RFC 9725)', () => {
  it("takes a werift publisher's offer with the ingest key as bearer token, shows its video as the game source, and ends on DELETE", async () => {
    const project = await consoleProject();
    const whipUrl = `${stack.url}/api/v1/projects/${project.id}/whip`;
    const pc = new RTCPeerConnection({
      codecs: { video: [new RTCRtpCodecParameters({ mimeType: 'video/VP8', clockRate: 90_000, payloadType: 96 })], audio: [] },
      iceAdditionalHostAddresses: ['127.0.0.1'],
    });
    const video = new MediaStreamTrack({ kind: 'video' });
    pc.addTransceiver(video, { direction: 'sendonly' });
    await pc.setLocalDescription(await pc.createOffer());
    await waitFor('ICE gathering', async () => (pc.iceGatheringState === 'complete' ? true : undefined), 10_000, 50);
    const offer = pc.localDescription!.sdp;

    // A wrong bearer token and a body that is no SDP are refused before anything starts.
    expect(
      (await fetch(whipUrl, { method: 'POST', headers: { 'content-type': 'application/sdp', authorization: 'Bearer live_wrong' }, body: offer })).status,
    ).toBe(401);
    expect(
      (
        await fetch(whipUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${project.ingest.streamKey}` },
          body: '{}',
        })
      ).status,
    ).toBe(415);

    const res = await fetch(whipUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/sdp', authorization: `Bearer ${project.ingest.streamKey}` },
      body: offer,
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/sdp/);
    const location = res.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^/api/v1/projects/${project.id}/whip/[0-9a-f-]{36}$`));
    await pc.setRemoteDescription({ type: 'answer', sdp: await res.text() });

    // The encoder's VP8 (a green picture, a keyframe a second) goes out on the WHIP peer.
    const socket = createSocket('udp4');
    socket.on('message', (packet) => video.writeRtp(packet));
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
    // biome-ignore format: the arguments stay in option-value pairs, as ffmpeg reads them
    const encoder = spawn('ffmpeg', [
      '-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', `color=c=${hex(MAGENTA)}:s=640x360:r=30`,
      '-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '800k', '-g', '30',
      '-f', 'rtp', '-payload_type', '96', `rtp://127.0.0.1:${socket.address().port}?pkt_size=1200`,
    ], { stdio: 'ignore' });
    publishers.push(encoder);
    try {
      expect((await ingestOf(project.id)).status).toMatchObject({ state: 'receiving', via: 'whip' });
      await waitFor('the broadcast to go live', async () => ((await broadcastOf(project.id))?.state === 'live' ? true : undefined), 30_000, 100);
      await outputShowsGame(project, MAGENTA, true, 'the WHIP feed in the output');

      // Ending the WHIP session needs the same bearer token.
      expect((await fetch(`${stack.url}${location}`, { method: 'DELETE', headers: { authorization: 'Bearer live_wrong' } })).status).toBe(401);
      expect((await fetch(`${stack.url}${location}`, { method: 'DELETE', headers: { authorization: `Bearer ${project.ingest.streamKey}` } })).status).toBe(200);
      expect((await ingestOf(project.id)).status.state).toBe('dropped');
      await outputShowsGame(project, MAGENTA, false, "'Game Source Offline' once the WHIP feed ended");
    } finally {
      encoder.kill('SIGKILL');
      socket.close();
      await pc.close();
    }
  }, 180_000);
});
