// Many creators on one Local server (issue 51): each project's Local destination has a stream name
// of its own, only that project's pipeline publishes to it, and each test-mode channel has a key of
// its own. A real nginx-rtmp asks the one-machine stack's publish gate (embedded/src/publish-gate.ts)
// on every publish, which asks the api (or, for a test-mode key, the platform doubles); ffmpeg
// publishes and reads, as encoders and players do.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localStreamSchema, type DestinationView, type LocalStream, type PlanOutput } from '@onair/protocol';
import { createLogger, redactedPaths, SecretBox } from '@onair/runtime';
import { freePort, startRtmpServer, waitFor, type RunningRtmpServer } from '@onair/embedded';
import { testRedisUrl } from '@onair/embedded/test-services';
import { startPlatformTestMode, type RunningPlatformTestMode } from '../../embedded/src/platform-test-mode.ts';
import { startPublishGate, type RunningPublishGate } from '../../embedded/src/publish-gate.ts';
import { loadConfig } from '../src/config.ts';
import { compose, type Composition } from '../src/compose.ts';
import { call, createTestUser, guestLinkOf, joinAsGuest, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

const CALLBACK_SECRET = 'local-stream-callback-secret-0123456789';
const secretsKey = SecretBox.generateKey();
const logLines: string[] = [];

let dir: string;
let localUrl: string;
let rtmp: RunningRtmpServer;
let gate: RunningPublishGate;
let doubles: RunningPlatformTestMode;
let api: StudioApi;
let worker: Composition;
let host: TestUser;
let stranger: TestUser;
const running = new Set<ChildProcess>();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'onair-local-stream-'));
  const rtmpPort = await freePort();
  localUrl = `rtmp://127.0.0.1:${rtmpPort}/live`;
  doubles = await startPlatformTestMode({ platforms: ['twitch'], redirectOrigins: [], ingest: { rtmpUrl: localUrl } });
  const logger = pino({ level: 'info', redact: { paths: redactedPaths, censor: '[redacted]' } }, { write: (line: string) => void logLines.push(line) });
  const env = { SECRETS_KEY: secretsKey, LOCAL_RTMP_URL: localUrl, LOCAL_RTMP_CALLBACK_SECRET: CALLBACK_SECRET, ...doubles.env };
  api = await startStudioApi({ env, logger });
  // The go-live's outputs, as the api hands them to the media worker.
  worker = compose({
    config: loadConfig({ DATABASE_URL: api.databaseUrl, REDIS_URL: testRedisUrl(), ...env }),
    db: api.db,
    redis: api.redis,
    logger: createLogger('t', 'silent'),
  });
  gate = await startPublishGate({
    localStreamCallbackUrl: `${api.url}/api/internal/local-stream/${CALLBACK_SECRET}/publish`,
    isTestModeKey: (key) => doubles.streamKeyOwner(key) !== undefined,
  });
  rtmp = await startRtmpServer({ dir: join(dir, 'nginx'), port: rtmpPort, onPublishUrl: gate.url });
  host = await createTestUser(api, { plan: 'Premium' });
  stranger = await createTestUser(api, { plan: 'Premium' });
}, 60_000);
afterAll(async () => {
  for (const p of running) p.kill('SIGKILL');
  await rtmp?.stop();
  await gate?.close();
  await worker?.close();
  await api?.close();
  await doubles?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function newProject(user: TestUser = host): Promise<string> {
  return ((await call(api, user, 'POST', '/api/v1/projects', { name: 'Local show' })).body as { id: string }).id;
}

async function addLocal(projectId: string, user: TestUser = host): Promise<DestinationView> {
  const res = await call(api, user, 'POST', `/api/v1/projects/${projectId}/destinations`, { type: 'Local' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as DestinationView;
}

const localStreamPath = (projectId: string, destinationId: string) => `/api/v1/projects/${projectId}/destinations/${destinationId}/local-stream`;

async function localStream(projectId: string, destinationId: string, method: 'GET' | 'POST' = 'GET'): Promise<LocalStream> {
  const res = await call(api, host, method, localStreamPath(projectId, destinationId));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return localStreamSchema.parse(res.body);
}

/** The Local output of a project's go-live: the address and key its pipeline publishes with. */
async function pipelineOutput(projectId: string): Promise<PlanOutput> {
  const outputs = await worker.broadcasts.outputsOf(projectId);
  const local = outputs.find((o) => o.url === localUrl);
  if (!local?.key) throw new Error('no Local output');
  return local;
}

const nameOf = (playUrl: string) => playUrl.slice(playUrl.lastIndexOf('/') + 1);

interface Publish {
  /** Resolves true once the server took the publish (frames went out), false when it refused it. */
  outcome: Promise<boolean>;
  stop(): void;
}

/**
 * ffmpeg publishing a test pattern to `rtmp://…/live/<key>` for as long as the test needs. The key
 * may carry a query (`name?onair=…`): ffmpeg sends it in the publish command, as the worker does.
 */
function publish(key: string): Publish {
  const child = spawn(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'info',
      '-re',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=160x90:rate=10',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-g',
      '10',
      '-f',
      'flv',
      `${localUrl}/${key}`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  running.add(child);
  let stderr = '';
  const outcome = new Promise<boolean>((resolve) => {
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      // Frames counted past the header: the server accepted the publish and takes the stream.
      if (/frame=\s*[1-9]\d*/.test(stderr) && /Output #0/.test(stderr)) resolve(true);
    });
    child.on('exit', () => {
      running.delete(child);
      resolve(false);
    });
  });
  return {
    outcome,
    stop: () => {
      child.kill('SIGKILL');
    },
  };
}

/** A player of `rtmp://…/live/<name>`: how many frames it decoded so far. */
function read(name: string): { frames(): number; stop(): void } {
  const child = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-progress', 'pipe:1', '-i', `${localUrl}/${name}`, '-f', 'null', '-'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  running.add(child);
  let frames = 0;
  child.stdout!.on('data', (d: Buffer) => {
    for (const m of d.toString().matchAll(/^frame=(\d+)$/gm)) frames = Number(m[1]);
  });
  child.on('exit', () => running.delete(child));
  return { frames: () => frames, stop: () => child.kill('SIGKILL') };
}

describe("a project's own Local stream", () => {
  it('gives each Local destination its own unguessable name, sealed at rest, shown to whoever manages the broadcast', async () => {
    const projectId = await newProject();
    const dest = await addLocal(projectId);
    const stream = await localStream(projectId, dest.id);
    expect(stream).toMatchObject({ destinationId: dest.id, hlsUrl: null, watchDelaySeconds: null });
    expect(stream.playUrl).toMatch(new RegExp(`^${localUrl}/local_[A-Za-z0-9_-]{24}$`));
    // The same name again; another destination (of any project) has another one.
    expect((await localStream(projectId, dest.id)).playUrl).toBe(stream.playUrl);
    const other = await addLocal(await newProject());
    expect((await localStream(other.projectId, other.id)).playUrl).not.toBe(stream.playUrl);

    const row = await api.db.destination.findUniqueOrThrow({ where: { id: dest.id } });
    expect(row.streamKeyEnc).not.toContain(nameOf(stream.playUrl));
    expect(row.localStreamHash).toMatch(/^[0-9a-f]{64}$/);
    expect(dest.streamKeyMasked).not.toBeNull();
    expect(JSON.stringify(dest)).not.toContain(nameOf(stream.playUrl));
  });

  it('is for those who run the broadcast: not another creator, a contributor, a guest or a viewer; not a non-Local destination', async () => {
    const projectId = await newProject();
    const dest = await addLocal(projectId);
    const path = localStreamPath(projectId, dest.id);
    for (const method of ['GET', 'POST'] as const) {
      // Another creator does not learn the project exists.
      expect((await call(api, stranger, method, path)).status).toBe(404);
      expect((await call(api, null, method, path)).status).toBe(401);
    }
    for (const role of ['contributor', 'viewer'] as const) {
      const member = await createTestUser(api);
      await api.db.projectMember.create({ data: { projectId, userId: member.id, role } });
      for (const method of ['GET', 'POST'] as const) {
        const res = await call(api, member, method, path);
        expect(res.status, `${role} ${method}`).toBe(403);
        expect(JSON.stringify(res.body)).not.toContain('local_');
      }
    }
    const joined = await joinAsGuest(api, projectId, await guestLinkOf(api, host, projectId));
    expect((await call(api, joined.guest!, 'GET', path)).status).toBe(403);
    // A co-host runs the broadcast too.
    const cohost = await createTestUser(api);
    await api.db.projectMember.create({ data: { projectId, userId: cohost.id, role: 'cohost' } });
    expect((await call(api, cohost, 'GET', path)).status).toBe(200);

    const custom = await call(api, host, 'POST', `/api/v1/projects/${projectId}/destinations`, {
      type: 'CustomRTMP',
      name: 'Elsewhere',
      rtmpUrl: 'rtmp://93.184.216.34/live',
      streamKey: 'k',
    });
    expect((await call(api, host, 'GET', localStreamPath(projectId, (custom.body as DestinationView).id))).status).toBe(404);
  });

  it("takes a publish only from the project's own pipeline, to a known name; a reader with another name gets nothing", async () => {
    const a = await newProject();
    const b = await newProject(stranger);
    const destA = await addLocal(a);
    await addLocal(b, stranger);
    const nameA = nameOf((await localStream(a, destA.id)).playUrl);
    const outA = await pipelineOutput(a);
    const outB = await pipelineOutput(b);
    expect(outA).toMatchObject({ url: localUrl, allowPrivate: true, keySetByOnAir: true });
    expect(outA.key!.startsWith(`${nameA}?onair=`)).toBe(true);
    const proofB = outB.key!.slice(outB.key!.indexOf('?'));

    // Project B's pipeline (its proof) on A's name, A's bare name (a Custom RTMP destination
    // pointed at this server), a made-up name, and a guess without the prefix: all refused.
    for (const key of [`${nameA}${proofB}`, nameA, `local_${'x'.repeat(24)}${proofB}`, 'live_123']) {
      const attempt = publish(key);
      expect(await attempt.outcome, key).toBe(false);
    }

    // A's pipeline publishes; the reader of A's name sees its frames, a reader of a wrong name none.
    const live = publish(outA.key!);
    expect(await live.outcome).toBe(true);
    const right = read(nameA);
    const wrong = read(`local_${'y'.repeat(24)}`);
    await waitFor('frames at the reader of the right name', async () => (right.frames() >= 10 ? true : undefined), 30_000, 100);
    wrong.stop();
    expect(wrong.frames()).toBe(0);
    right.stop();

    // A second publisher of the same name is refused while the first is live.
    const second = publish(outA.key!);
    expect(await second.outcome).toBe(false);
    live.stop();

    // Names and proofs are never logged.
    const logs = logLines.join('\n');
    expect(logs).not.toContain(nameA);
    expect(logs).not.toContain(outA.key!.slice(outA.key!.indexOf('=') + 1));
    expect(logs).not.toContain(CALLBACK_SECRET);
  }, 120_000);

  it('runs two projects at once, each on its own name', async () => {
    const projects = [await newProject(), await newProject(stranger)];
    await addLocal(projects[0]!);
    await addLocal(projects[1]!, stranger);
    const outputs = await Promise.all(projects.map((p) => pipelineOutput(p)));
    const publishes = outputs.map((o) => publish(o.key!));
    expect(await Promise.all(publishes.map((p) => p.outcome))).toEqual([true, true]);
    for (const p of publishes) p.stop();
  }, 60_000);

  it('rotates the name: the old one is refused from then on, the new one publishes', async () => {
    const projectId = await newProject();
    const dest = await addLocal(projectId);
    const before = await localStream(projectId, dest.id);
    const oldKey = (await pipelineOutput(projectId)).key!;
    const rotated = await localStream(projectId, dest.id, 'POST');
    expect(rotated.playUrl).not.toBe(before.playUrl);
    expect((await localStream(projectId, dest.id)).playUrl).toBe(rotated.playUrl);

    const old = publish(oldKey);
    expect(await old.outcome).toBe(false);
    const newKey = (await pipelineOutput(projectId)).key!;
    expect(newKey.startsWith(`${nameOf(rotated.playUrl)}?`)).toBe(true);
    const fresh = publish(newKey);
    expect(await fresh.outcome).toBe(true);
    fresh.stop();
  }, 60_000);

  it('keeps the name while the project is live: a rename would refuse the running pipeline at its next reconnect', async () => {
    const projectId = await newProject();
    const dest = await addLocal(projectId);
    const before = await localStream(projectId, dest.id);
    const broadcast = await api.db.broadcast.create({ data: { projectId, state: 'live', startedAt: new Date() } });
    const refused = await call(api, host, 'POST', localStreamPath(projectId, dest.id));
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: { code: 'CONFLICT', message: 'This stream is live. End the broadcast, then give it a new address.' } });
    expect((await localStream(projectId, dest.id)).playUrl).toBe(before.playUrl);
    await api.db.broadcast.update({ where: { id: broadcast.id }, data: { state: 'ended', endedAt: new Date() } });
    expect((await localStream(projectId, dest.id, 'POST')).playUrl).not.toBe(before.playUrl);
  });

  it('gives a Local destination made with the old shared key its own name on first use', async () => {
    const projectId = await newProject();
    const dest = await addLocal(projectId);
    // As the migration leaves such a row: no name, no lookup digest.
    await api.db.destination.update({ where: { id: dest.id }, data: { streamKeyEnc: null, streamKeyHash: null, localStreamHash: null } });
    const out = await pipelineOutput(projectId);
    const stream = await localStream(projectId, dest.id);
    expect(out.key!.startsWith(`${nameOf(stream.playUrl)}?onair=`)).toBe(true);
  });

  it('refuses a callback without the server secret', async () => {
    const query = new URLSearchParams({ call: 'publish', app: 'live', name: 'local_x', clientid: '1', addr: '127.0.0.1' });
    expect((await fetch(`${api.url}/api/internal/local-stream/not-the-secret-000000000000/publish?${query}`)).status).toBe(403);
  });
});

describe('test-mode channels', () => {
  it("publish under their own channel's key only: a key no double handed out is refused, two channels stream at once", async () => {
    const keys = doubles.streamKeys.twitch!;
    const [ada, bob] = [keys.keyOf('1001'), keys.keyOf('1002')];
    expect(ada).not.toBe(bob);
    expect(keys.keyOf('1001')).toBe(ada);
    expect(doubles.streamKeyOwner(ada)).toEqual({ platform: 'twitch', channel: '1001' });

    const made = publish(`twitch_test_${'z'.repeat(24)}`);
    expect(await made.outcome).toBe(false);
    const both = [publish(ada), publish(bob)];
    expect(await Promise.all(both.map((p) => p.outcome))).toEqual([true, true]);
    for (const p of both) p.stop();
  }, 60_000);

  it("hands each channel its own key through Helix, as Twitch does (GET streams/key for the token's broadcaster)", async () => {
    const helix = doubles.env.TWITCH_API_URL!;
    const keyFor = async (id: string) => {
      const { accessToken } = doubles.twitch!.events.issueToken({ id, login: `c${id}`, displayName: `C${id}`, email: `${id}@twitch.test-mode.invalid` });
      const res = await fetch(`${helix}/streams/key?broadcaster_id=${id}`, { headers: { authorization: `Bearer ${accessToken}`, 'client-id': 'x' } });
      return ((await res.json()) as { data: { stream_key: string }[] }).data[0]!.stream_key;
    };
    const [one, two] = [await keyFor('2001'), await keyFor('2002')];
    expect(one).not.toBe(two);
    expect(doubles.streamKeyOwner(one)).toEqual({ platform: 'twitch', channel: '2001' });
  });
});
