// A Local destination's stream, watched in the studio (issue 51): the api on a test database and
// the test Redis, a real nginx-rtmp writing HLS, a real ffmpeg publishing to the destination's
// address. The Watch player's files come through the api, behind the project's access check, and
// the playlist never tells the browser the stream name.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localStreamWatchUrl, type DestinationView, type LocalStream } from '@onair/protocol';
import { startRtmpServer, type RunningRtmpServer } from '@onair/embedded';
import { SecretBox } from '@onair/runtime';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

/** The destination's own stream name (issue 51), read from GET local-stream once it exists. */
let LOCAL_KEY: string;

let dir: string;
let rtmp: RunningRtmpServer;
let api: StudioApi;
/** The same database served by an api whose RTMP server writes no HLS. */
let noHls: StudioApi;
let host: TestUser;
let projectId: string;
let local: DestinationView;
let publisher: ChildProcess | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'onair-local-watch-'));
  rtmp = await startRtmpServer({ dir: join(dir, 'rtmp'), hls: true });
  const env = { SECRETS_KEY: SecretBox.generateKey(), LOCAL_RTMP_URL: `rtmp://127.0.0.1:${rtmp.port}/${rtmp.application}` };
  api = await startStudioApi({ env: { ...env, LOCAL_RTMP_HLS_URL: rtmp.hlsUrl } });
  noHls = await startStudioApi({ databaseUrl: api.databaseUrl, env });
  host = await createTestUser(api, { plan: 'Premium' });
  projectId = ((await call(api, host, 'POST', '/api/v1/projects', { name: 'Show' })).body as { id: string }).id;
  local = (await call(api, host, 'POST', `/api/v1/projects/${projectId}/destinations`, { type: 'Local' })).body as DestinationView;
  const stream = (await call(api, host, 'GET', `/api/v1/projects/${projectId}/destinations/${local.id}/local-stream`)).body as LocalStream;
  LOCAL_KEY = stream.playUrl.split('/').at(-1)!;
  expect(LOCAL_KEY).toMatch(/^local_[\w-]{24}$/);
}, 60_000);

afterAll(async () => {
  publisher?.kill('SIGKILL');
  await noHls?.close();
  await api?.close();
  await rtmp?.stop();
  await rm(dir, { recursive: true, force: true });
});

const watch = (user: TestUser | null, file: string, id = local.id) =>
  fetch(`${api.url}${localStreamWatchUrl(projectId, id, file)}`, { headers: user ? { cookie: user.cookie } : {} });

async function errorCode(res: Response): Promise<string | undefined> {
  return ((await res.json()) as { error?: { code?: string } }).error?.code;
}

/** The published stream's playlist through the api, once it lists at least `segments` segments. */
async function playlistWith(segments: number): Promise<{ res: Response; text: string }> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await watch(host, 'index.m3u8');
    if (res.status === 200) {
      const text = await res.text();
      if (text.split('\n').filter((l) => l.endsWith('.ts')).length >= segments) return { res, text };
    } else await res.body?.cancel();
    if (Date.now() > deadline) throw new Error(`no playlist with ${segments} segments (last status ${res.status})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe("a Local destination's stream", () => {
  it('says where to watch it: the address with its stream name, and the Watch player with its delay', async () => {
    const res = await call(api, host, 'GET', `/api/v1/projects/${projectId}/destinations/${local.id}/local-stream`);
    expect(res).toMatchObject({ status: 200 });
    const view = res.body as LocalStream;
    expect(view).toEqual({
      destinationId: local.id,
      playUrl: `rtmp://127.0.0.1:${rtmp.port}/${rtmp.application}/${LOCAL_KEY}`,
      hlsUrl: localStreamWatchUrl(projectId, local.id),
      watchDelaySeconds: 6,
    });
    // A server without HLS still gives the address, and says the studio cannot play it.
    expect((await call(noHls, host, 'GET', `/api/v1/projects/${projectId}/destinations/${local.id}/local-stream`)).body).toMatchObject({
      playUrl: view.playUrl,
      hlsUrl: null,
      watchDelaySeconds: null,
    });
  });

  it('is watched through the api: the playlist names segments without the stream name, and they play', async () => {
    // Nothing published yet.
    const before = await watch(host, 'index.m3u8');
    expect(before.status).toBe(404);
    expect(await errorCode(before)).toBe('LOCAL_STREAM_NOT_LIVE');

    const { playUrl } = (await call(api, host, 'GET', `/api/v1/projects/${projectId}/destinations/${local.id}/local-stream`)).body as LocalStream;
    // A 2 s keyframe interval, as the media worker encodes the program.
    publisher = spawn(
      'ffmpeg',
      [
        ...['-nostdin', '-v', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc=s=320x180:r=30', '-f', 'lavfi', '-i', 'sine=frequency=440'],
        ...['-c:v', 'libx264', '-preset', 'veryfast', '-g', '60', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', 'flv', playUrl],
      ],
      { stdio: 'ignore' },
    );

    const { res, text } = await playlistWith(2);
    expect(res.headers.get('content-type')).toMatch(/^application\/vnd\.apple\.mpegurl/);
    expect(res.headers.get('cache-control')).toContain('no-cache');
    expect(text).toMatch(/^#EXTM3U\n/);
    expect(text).toContain('#EXT-X-TARGETDURATION:');
    expect(text).not.toContain(LOCAL_KEY);
    const segments = text.split('\n').filter((l) => !l.startsWith('#') && l !== '');
    for (const s of segments) expect(s).toMatch(/^seg-\d+\.ts$/);

    const segment = await watch(host, segments[0]!);
    expect(segment.status).toBe(200);
    expect(segment.headers.get('content-type')).toBe('video/mp2t');
    const bytes = new Uint8Array(await segment.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(188 * 10);
    // MPEG-TS: a sync byte every 188 bytes.
    for (let i = 0; i < bytes.length; i += 188) expect(bytes[i]).toBe(0x47);
  }, 60_000);

  it('answers only a signed-in caller who may manage the project, and only for Local destinations', async () => {
    const other = await createTestUser(api);
    const stranger = await watch(other, 'index.m3u8');
    expect(stranger.status).toBe(404);
    expect(await errorCode(stranger)).toBe('NOT_FOUND');
    expect((await call(api, other, 'GET', `/api/v1/projects/${projectId}/destinations/${local.id}/local-stream`)).status).toBe(404);
    const signedOut = await watch(null, 'index.m3u8');
    expect(signedOut.status).toBe(401);
    expect(await errorCode(signedOut)).toBe('UNAUTHENTICATED');
    expect((await watch(null, 'seg-0.ts')).status).toBe(401);

    const created = await call(api, host, 'POST', `/api/v1/projects/${projectId}/destinations`, {
      type: 'CustomRTMP',
      name: 'Elsewhere',
      rtmpUrl: 'rtmp://93.184.216.34/live',
      streamKey: 'sk_custom_1',
    });
    expect(created.status).toBe(201);
    const custom = created.body as DestinationView;
    expect((await watch(host, 'index.m3u8', custom.id)).status).toBe(404);
    expect((await call(api, host, 'GET', `/api/v1/projects/${projectId}/destinations/${custom.id}/local-stream`)).status).toBe(404);
  });

  it('refuses any other file name with NOT_FOUND, whatever the RTMP server holds', async () => {
    for (const file of ['0.ts', `${LOCAL_KEY}.m3u8`, 'index.m3u8.bak', 'seg-1.mp4', 'seg-.ts', 'seg-1.ts.ts', '..%2Findex.m3u8', '%2e%2e', 'nginx.conf']) {
      const res = await watch(host, file);
      expect(res.status, file).toBe(404);
      expect(await errorCode(res), file).toBe('NOT_FOUND');
    }
    // A segment that left the playlist (or never was) is gone, not an error of the server.
    const gone = await watch(host, 'seg-999999.ts');
    expect(gone.status).toBe(404);
    expect(await errorCode(gone)).toBe('NOT_FOUND');
  });

  it('tells the studio when the server cannot play Local streams', async () => {
    const res = await fetch(`${noHls.url}${localStreamWatchUrl(projectId, local.id)}`, { headers: { cookie: host.cookie } });
    expect(res.status).toBe(404);
    expect(await errorCode(res)).toBe('LOCAL_STREAM_NOT_WATCHABLE');
  });
});
