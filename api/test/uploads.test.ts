// Uploads (issue 19): the real api on a test database, files made by ffmpeg, the disk store in a
// temp folder. Every refusal is checked for its words and for leaving the store as it was.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let premium: TestUser;
let free: TestUser;
let stranger: TestUser;
let projectId = '';
let freeProjectId = '';
let work = '';
let store = '';
const file = (name: string) => join(work, name);

function ffmpeg(...args: string[]): void {
  execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', ...args]);
}

/** A PNG whose header claims `width`×`height` (ffprobe reads the header; no decoder is ever asked to draw it). */
function pngHeaderOnly(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function upload(
  user: TestUser | null,
  project: string,
  purpose: string,
  name: string,
  body: Buffer,
): Promise<{ status: number; body: { error?: { code: string; message: string }; id?: string; [k: string]: unknown } }> {
  const res = await fetch(`${api.url}/api/v1/projects/${project}/uploads?purpose=${purpose}&name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { ...(user ? { cookie: user.cookie } : {}), 'content-type': 'application/octet-stream' },
    body,
  });
  return { status: res.status, body: (await res.json()) as never };
}

/** Declares `declared` bytes, sends only the first megabyte, and reads the answer: a refusal must come before the rest. */
function uploadDeclaring(
  user: TestUser,
  project: string,
  purpose: string,
  declared: number,
): Promise<{ status: number; body: { error: { code: string; message: string } }; sentBytes: number }> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${api.url}/api/v1/projects/${project}/uploads?purpose=${purpose}&name=big.mp4`);
    let sentBytes = 0;
    const req = request(
      url,
      { method: 'POST', headers: { cookie: user.cookie, 'content-length': String(declared), 'content-type': 'application/octet-stream' } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as never, sentBytes }));
      },
    );
    req.on('error', reject);
    const chunk = Buffer.alloc(64 * 1024);
    for (let i = 0; i < 16; i++) {
      req.write(chunk);
      sentBytes += chunk.length;
    }
  });
}

const storedFiles = () =>
  readdirSync(store)
    .filter((f) => !f.startsWith('.'))
    .sort();

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'onair-uploads-'));
  store = join(work, 'store');
  ffmpeg('-f', 'lavfi', '-i', 'color=c=red:s=320x180', '-frames:v', '1', file('red.png'));
  ffmpeg('-f', 'lavfi', '-i', 'testsrc=s=640x360', '-frames:v', '1', file('photo.jpg'));
  ffmpeg('-f', 'lavfi', '-i', 'testsrc=s=160x90:r=5', '-t', '1', file('anim.gif'));
  ffmpeg('-f', 'lavfi', '-i', 'color=c=blue:s=320x180', '-frames:v', '1', '-c:v', 'libwebp', file('blue.webp'));
  // 2 s of H.264 + AAC with its index first (faststart), so a cut copy still has a readable header.
  ffmpeg(
    '-f',
    'lavfi',
    '-i',
    'testsrc=s=320x180:r=30',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440',
    '-t',
    '2',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-movflags',
    '+faststart',
    file('clip.mp4'),
  );
  ffmpeg('-f', 'lavfi', '-i', 'testsrc=s=320x180:r=30', '-t', '1', '-c:v', 'mpeg4', file('mpeg4.mp4'));
  const clip = readFileSync(file('clip.mp4'));
  writeFileSync(file('cut.mp4'), clip.subarray(0, Math.floor(clip.length * 0.6)));
  writeFileSync(file('huge.png'), pngHeaderOnly(20_000, 20_000));

  api = await startStudioApi({ env: { UPLOADS_DIR: store, UPLOAD_QUOTA_BYTES: String(50 * 1024 * 1024), UPLOAD_MAX_VIDEO_BYTES: String(20 * 1024 ** 3) } });
  premium = await createTestUser(api, { plan: 'Premium' });
  free = await createTestUser(api);
  stranger = await createTestUser(api, { plan: 'Premium' });
  projectId = ((await call(api, premium, 'POST', '/api/v1/projects', { name: 'Uploads' })).body as { id: string }).id;
  freeProjectId = ((await call(api, free, 'POST', '/api/v1/projects', { name: 'Free uploads' })).body as { id: string }).id;
});
afterAll(async () => {
  await api?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('uploads', () => {
  let logoId = '';
  let videoId = '';

  it('stores images (PNG, JPEG, GIF, WebP as PNG) and an H.264+AAC video, typed from their content', async () => {
    const logo = await upload(premium, projectId, 'logo', 'red.png', readFileSync(file('red.png')));
    expect(logo).toMatchObject({ status: 201, body: { kind: 'image', mimeType: 'image/png', width: 320, height: 180, purpose: 'logo', name: 'red.png' } });
    logoId = logo.body.id!;
    // The name says PNG; the bytes are a JPEG, and JPEG is what is recorded.
    expect(await upload(premium, projectId, 'background', 'photo.png', readFileSync(file('photo.jpg')))).toMatchObject({
      status: 201,
      body: { mimeType: 'image/jpeg', width: 640, height: 360 },
    });
    expect(await upload(premium, projectId, 'background', 'anim.gif', readFileSync(file('anim.gif')))).toMatchObject({
      status: 201,
      body: { mimeType: 'image/gif', width: 160 },
    });
    expect(await upload(premium, projectId, 'background', 'blue.webp', readFileSync(file('blue.webp')))).toMatchObject({
      status: 201,
      body: { mimeType: 'image/webp', width: 320 },
    });
    const video = await upload(premium, projectId, 'video', 'clip.mp4', readFileSync(file('clip.mp4')));
    expect(video).toMatchObject({ status: 201, body: { kind: 'video', mimeType: 'video/mp4', width: 320, height: 180, hasAudio: true } });
    expect(video.body.durationSeconds as number).toBeCloseTo(2, 0);
    videoId = video.body.id!;

    const content = await fetch(`${api.url}/api/v1/projects/${projectId}/uploads/${logoId}/content`, { headers: { cookie: premium.cookie } });
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await content.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');

    const listed = (await call(api, premium, 'GET', `/api/v1/projects/${projectId}/uploads`)).body as {
      uploads: { id: string }[];
      usage: { usedBytes: number; quotaBytes: number };
    };
    expect(listed.uploads).toHaveLength(5);
    expect(listed.usage.quotaBytes).toBe(50 * 1024 * 1024);
    expect(listed.usage.usedBytes).toBeGreaterThan(0);
    expect(storedFiles()).toHaveLength(5);
  });

  it('refuses bad files with words, and what was stored before stays as it was', async () => {
    const before = storedFiles();
    const lying = await upload(premium, projectId, 'logo', 'logo.png', Buffer.from('<html>this is not a picture</html>'.repeat(200)));
    expect(lying).toMatchObject({
      status: 415,
      body: { error: { code: 'UPLOAD_TYPE_UNSUPPORTED', message: expect.stringContaining('PNG, JPEG, WebP or GIF') } },
    });
    expect(await upload(premium, projectId, 'logo', 'clip.png', readFileSync(file('clip.mp4')))).toMatchObject({
      status: 415,
      body: { error: { message: 'Upload an image (PNG, JPEG, WebP or GIF) here.' } },
    });
    expect(await upload(premium, projectId, 'video', 'cut.mp4', readFileSync(file('cut.mp4')))).toMatchObject({
      status: 422,
      body: { error: { code: 'UPLOAD_UNREADABLE', message: expect.stringContaining('damaged or incomplete') } },
    });
    expect(await upload(premium, projectId, 'video', 'old.mp4', readFileSync(file('mpeg4.mp4')))).toMatchObject({
      status: 422,
      body: { error: { code: 'UPLOAD_UNREADABLE', message: expect.stringContaining('encoded as MPEG4, which we cannot play') } },
    });
    expect(await upload(premium, projectId, 'background', 'huge.png', readFileSync(file('huge.png')))).toMatchObject({
      status: 422,
      body: { error: { code: 'UPLOAD_UNREADABLE', message: 'This picture is 20000 × 20000 pixels; the largest accepted is 8192 × 8192.' } },
    });
    expect(storedFiles()).toEqual(before);
  });

  it('refuses a 10 GB upload over the quota, and an image over its size limit, before reading them', async () => {
    const before = storedFiles();
    const overQuota = await uploadDeclaring(premium, projectId, 'video', 10 * 1024 ** 3);
    expect(overQuota.status).toBe(413);
    expect(overQuota.body.error.code).toBe('UPLOAD_QUOTA_EXCEEDED');
    expect(overQuota.body.error.message).toMatch(/^This file needs 10 GB but only [\d.]+ MB of your 50 MB storage is free\./);
    const tooLarge = await uploadDeclaring(premium, projectId, 'logo', 10 * 1024 ** 3);
    expect(tooLarge).toMatchObject({
      status: 413,
      body: { error: { code: 'UPLOAD_TOO_LARGE', message: 'This file is too large: images can be up to 20 MB.' } },
    });
    expect(storedFiles()).toEqual(before);
    // The earlier files are still whole.
    const video = await fetch(`${api.url}/api/v1/projects/${projectId}/uploads/${videoId}/content`, { headers: { cookie: premium.cookie } });
    expect(Buffer.from(await video.arrayBuffer()).equals(readFileSync(file('clip.mp4')))).toBe(true);
  });

  it('refuses Free uploads of a logo, backgrounds and screens with words (the plan is checked on the server)', async () => {
    expect(await upload(free, freeProjectId, 'logo', 'red.png', readFileSync(file('red.png')))).toMatchObject({
      status: 403,
      body: { error: { code: 'PLAN_LIMIT_REACHED', message: 'Your plan shows the OnAir logo. Upgrade to upload your own logo.' } },
    });
    expect(await upload(free, freeProjectId, 'screen', 'brb.png', readFileSync(file('red.png')))).toMatchObject({
      status: 403,
      body: { error: { code: 'PLAN_LIMIT_REACHED', message: 'Upgrade to use your own Starting Soon, Be Right Back and Ending screens.' } },
    });
    expect((await upload(free, freeProjectId, 'background', 'red.png', readFileSync(file('red.png')))).status).toBe(403);
  });

  it('keeps uploads to the project: nobody without a role reads, lists or adds', async () => {
    expect(await upload(stranger, projectId, 'logo', 'red.png', readFileSync(file('red.png')))).toMatchObject({
      status: 404,
      body: { error: { code: 'NOT_FOUND' } },
    });
    expect((await upload(null, projectId, 'logo', 'red.png', readFileSync(file('red.png')))).status).toBe(401);
    expect((await call(api, stranger, 'GET', `/api/v1/projects/${projectId}/uploads`)).status).toBe(404);
    expect((await fetch(`${api.url}/api/v1/projects/${projectId}/uploads/${logoId}/content`, { headers: { cookie: stranger.cookie } })).status).toBe(404);
    expect((await call(api, stranger, 'DELETE', `/api/v1/projects/${projectId}/uploads/${logoId}`)).status).toBe(404);
  });

  it("lets scenes show only this project's uploads, of the right kind, and keeps an upload a scene uses", async () => {
    const doc = (await call(api, premium, 'GET', `/api/v1/projects/${projectId}/scene`)).body as { version: number; activeSceneId: string };
    const patch = (version: number, ops: unknown[]) => call(api, premium, 'PATCH', `/api/v1/projects/${projectId}/scene`, { baseVersion: version, ops });
    const imageSource = randomUUID();
    const videoSource = randomUUID();
    const accepted = await patch(doc.version, [
      { op: 'addSource', source: { id: imageSource, kind: 'image', settings: { uploadId: logoId, purpose: 'logo' } } },
      { op: 'addLayer', sceneId: doc.activeSceneId, layer: { id: randomUUID(), sourceId: imageSource } },
      { op: 'addSource', source: { id: videoSource, kind: 'video', settings: { uploadId: videoId, loop: true } } },
      { op: 'addLayer', sceneId: doc.activeSceneId, layer: { id: randomUUID(), sourceId: videoSource } },
    ]);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const version = (accepted.body as { version: number }).version;

    // Another project's upload, or an image as a video: refused with words.
    const elsewhere = (await call(api, stranger, 'POST', '/api/v1/projects', { name: 'Other' })).body as { id: string };
    const theirs = await upload(stranger, elsewhere.id, 'logo', 'red.png', readFileSync(file('red.png')));
    expect(
      await patch(version, [{ op: 'addSource', source: { id: randomUUID(), kind: 'image', settings: { uploadId: theirs.body.id, purpose: 'logo' } } }]),
    ).toMatchObject({
      status: 422,
      body: { error: { code: 'SCENE_RULE_VIOLATED', message: "This file is not among the project's uploads. Upload it again." } },
    });
    expect(await patch(version, [{ op: 'updateSource', sourceId: videoSource, settings: { kind: 'video', uploadId: logoId } }])).toMatchObject({
      status: 422,
      body: { error: { details: { rule: 'upload-wrong-kind' } } },
    });

    expect(await call(api, premium, 'DELETE', `/api/v1/projects/${projectId}/uploads/${videoId}`)).toMatchObject({
      status: 409,
      body: { error: { code: 'UPLOAD_IN_USE' } },
    });
    const removed = await patch(version, [{ op: 'removeSource', sourceId: videoSource }]);
    expect(removed.status).toBe(200);
    expect((await call(api, premium, 'DELETE', `/api/v1/projects/${projectId}/uploads/${videoId}`)).status).toBe(204);
    expect(storedFiles().some((f) => f.startsWith(videoId))).toBe(false);
  });

  it("gives every plan the built-in Starting Soon, Be Right Back and Ending screens as scenes; a screen of one's own only with the plan", async () => {
    const doc = (await call(api, free, 'GET', `/api/v1/projects/${freeProjectId}/scene`)).body as { version: number; sources: { id: string; kind: string }[] };
    const watermark = doc.sources.find((s) => s.kind === 'watermark')!;
    const brbScene = randomUUID();
    const picture = randomUUID();
    const added = await call(api, free, 'PATCH', `/api/v1/projects/${freeProjectId}/scene`, {
      baseVersion: doc.version,
      ops: [
        { op: 'addScene', sceneId: brbScene, name: 'Be right back', kind: 'brb' },
        { op: 'addSource', source: { id: picture, kind: 'image', settings: { screen: 'brb', purpose: 'screen' } } },
        { op: 'addLayer', sceneId: brbScene, layer: { id: randomUUID(), sourceId: picture, x: 0, y: 0, width: 1280, height: 720 } },
        // Free shows the logo in every scene, screens included.
        { op: 'addLayer', sceneId: brbScene, layer: { id: randomUUID(), sourceId: watermark.id } },
      ],
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const after = (await call(api, free, 'GET', `/api/v1/projects/${freeProjectId}/scene`)).body as { version: number; scenes: { id: string; kind: string }[] };
    expect(after.scenes.find((s) => s.id === brbScene)?.kind).toBe('brb');
    // The creator's own picture as the screen: Premium's.
    expect(
      await call(api, free, 'PATCH', `/api/v1/projects/${freeProjectId}/scene`, {
        baseVersion: after.version,
        ops: [{ op: 'updateSource', sourceId: picture, settings: { kind: 'image', screen: null, uploadId: randomUUID() } }],
      }),
    ).toMatchObject({
      status: 403,
      body: { error: { code: 'PLAN_LIMIT_REACHED', message: 'Upgrade to use your own Starting Soon, Be Right Back and Ending screens.' } },
    });
    const premiumDoc = (await call(api, premium, 'GET', `/api/v1/projects/${projectId}/scene`)).body as { version: number };
    const own = await upload(premium, projectId, 'screen', 'brb.png', readFileSync(file('red.png')));
    const premiumPicture = randomUUID();
    expect(
      (
        await call(api, premium, 'PATCH', `/api/v1/projects/${projectId}/scene`, {
          baseVersion: premiumDoc.version,
          ops: [
            { op: 'addScene', sceneId: randomUUID(), name: 'Back soon', kind: 'brb' },
            { op: 'addSource', source: { id: premiumPicture, kind: 'image', settings: { uploadId: own.body.id, purpose: 'screen' } } },
          ],
        })
      ).status,
    ).toBe(200);
  });

  it('refuses a Free plan a replaced logo, a hidden logo and a video source with words', async () => {
    const doc = (await call(api, free, 'GET', `/api/v1/projects/${freeProjectId}/scene`)).body as {
      version: number;
      activeSceneId: string;
      sources: { id: string; kind: string }[];
      scenes: { id: string; layers: { id: string; sourceId: string }[] }[];
    };
    const patch = (ops: unknown[]) => call(api, free, 'PATCH', `/api/v1/projects/${freeProjectId}/scene`, { baseVersion: doc.version, ops });
    expect(
      await patch([{ op: 'addSource', source: { id: randomUUID(), kind: 'image', settings: { url: 'https://example.com/logo.png', purpose: 'logo' } } }]),
    ).toMatchObject({
      status: 403,
      body: { error: { code: 'PLAN_LIMIT_REACHED', message: 'Upgrade to replace the logo with your own.' } },
    });
    const watermark = doc.sources.find((s) => s.kind === 'watermark')!;
    const scene = doc.scenes.find((s) => s.id === doc.activeSceneId)!;
    const layer = scene.layers.find((l) => l.sourceId === watermark.id)!;
    expect(await patch([{ op: 'updateLayer', sceneId: scene.id, layerId: layer.id, changes: { visible: false } }])).toMatchObject({
      status: 403,
      body: { error: { code: 'PLAN_LIMIT_REACHED', message: 'Your plan shows the OnAir logo on all streams. Upgrade to hide or replace it.' } },
    });
    expect(await patch([{ op: 'addSource', source: { id: randomUUID(), kind: 'video', settings: {} } }])).toMatchObject({
      status: 403,
      body: { error: { code: 'PLAN_LIMIT_REACHED', message: 'Upgrade to play your own videos in scenes.' } },
    });
  });
});
