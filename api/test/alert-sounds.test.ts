/**
 * Issue 39 item 5d: uploaded alert sounds besides the built-in ones. A sound goes through the
 * uploads module (type from the bytes, size limit, length, the disk store), the alert settings name
 * it, and the alerts overlay page plays it, reading it with the page's key. Real api, PostgreSQL,
 * Redis and ffmpeg-made files.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS, type AlertPlay, type AlertSettings, type Upload } from '@onair/protocol';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let host: TestUser;
let projectId = '';
let otherProjectId = '';
let work = '';
const file = (name: string) => join(work, name);

function ffmpeg(...args: string[]): void {
  execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', ...args]);
}

async function upload(
  project: string,
  purpose: string,
  name: string,
  body: Buffer,
): Promise<{ status: number; body: Upload & { error?: { code: string; message: string } } }> {
  const res = await fetch(`${api.url}/api/v1/projects/${project}/uploads?purpose=${purpose}&name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { cookie: host.cookie, 'content-type': 'application/octet-stream' },
    body,
  });
  return { status: res.status, body: (await res.json()) as never };
}

const withSound = (settings: AlertSettings, sound: AlertSettings['follow']['sound'], soundUploadId: string | null): AlertSettings => ({
  ...settings,
  follow: { ...settings.follow, sound, soundUploadId },
});

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'onair-alert-sounds-'));
  ffmpeg('-f', 'lavfi', '-i', 'sine=frequency=880:duration=1', '-c:a', 'libmp3lame', file('ding.mp3'));
  ffmpeg('-f', 'lavfi', '-i', 'sine=frequency=660:duration=1', '-c:a', 'libopus', file('ding.ogg'));
  ffmpeg('-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-ar', '8000', '-c:a', 'pcm_s16le', file('ding.wav'));
  ffmpeg('-f', 'lavfi', '-i', 'sine=frequency=440:duration=20', '-ac', '1', '-ar', '8000', '-c:a', 'libmp3lame', '-b:a', '8k', file('long.mp3'));
  ffmpeg('-f', 'lavfi', '-i', 'color=c=red:s=64x64', '-frames:v', '1', file('red.png'));
  api = await startStudioApi({ env: { UPLOADS_DIR: join(work, 'store'), UPLOAD_MAX_AUDIO_BYTES: String(64 * 1024) } });
  // The free plan: alerts, and their sounds, need no upgrade.
  host = await createTestUser(api);
  projectId = (await api.db.project.create({ data: { ownerId: host.id, name: 'Alerts' } })).id;
  otherProjectId = (await api.db.project.create({ data: { ownerId: host.id, name: 'Other' } })).id;
});

afterAll(async () => {
  await api?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('alert sounds through the uploads module', () => {
  it('accepts an MP3, an Ogg Opus and a WAV of a second as alert sounds, on any plan', async () => {
    for (const [name, mimeType] of [
      ['ding.mp3', 'audio/mpeg'],
      ['ding.ogg', 'audio/ogg'],
      ['ding.wav', 'audio/wav'],
    ] as const) {
      const res = await upload(projectId, 'alert-sound', name, readFileSync(file(name)));
      expect(res.status, name).toBe(201);
      expect(res.body).toMatchObject({ purpose: 'alert-sound', kind: 'audio', mimeType, name, width: 0, height: 0, hasAudio: true });
      expect(res.body.durationSeconds).toBeGreaterThan(0.9);
      expect(res.body.durationSeconds).toBeLessThan(1.2);
    }
  });

  it('refuses a picture as a sound, a sound as a background, a sound longer than an alert, and one over the size limit', async () => {
    const picture = await upload(projectId, 'alert-sound', 'red.png', readFileSync(file('red.png')));
    expect(picture.status).toBe(415);
    expect(picture.body.error).toMatchObject({ code: 'UPLOAD_TYPE_UNSUPPORTED', message: 'Upload a sound (MP3, Ogg or WAV) here.' });
    // A plan with custom backgrounds: the sound is refused for what it is, not for the plan.
    const premium = await createTestUser(api, { plan: 'Premium' });
    const premiumProject = (await api.db.project.create({ data: { ownerId: premium.id, name: 'Premium' } })).id;
    const background = await fetch(`${api.url}/api/v1/projects/${premiumProject}/uploads?purpose=background&name=ding.mp3`, {
      method: 'POST',
      headers: { cookie: premium.cookie, 'content-type': 'application/octet-stream' },
      body: readFileSync(file('ding.mp3')),
    });
    expect(background.status).toBe(415);
    expect(((await background.json()) as { error: { message: string } }).error.message).toBe('Upload an image (PNG, JPEG, WebP or GIF) here.');
    const long = await upload(projectId, 'alert-sound', 'long.mp3', readFileSync(file('long.mp3')));
    expect(long.status).toBe(422);
    expect(long.body.error).toMatchObject({ code: 'UPLOAD_UNREADABLE', message: 'This sound lasts 20 s; an alert sound can last up to 15 s.' });
    const big = await upload(projectId, 'alert-sound', 'big.wav', Buffer.concat([readFileSync(file('ding.wav')), Buffer.alloc(64 * 1024)]));
    expect(big.status).toBe(413);
    expect(big.body.error).toMatchObject({ code: 'UPLOAD_TOO_LARGE', message: 'This file is too large: sounds can be up to 64 KB.' });
    expect(await api.db.upload.count({ where: { projectId, purpose: 'alert-sound' } })).toBe(3);
  });
});

describe('an uploaded sound in the alerts', () => {
  it('is chosen in the settings; a missing, foreign or non-sound upload is refused', async () => {
    const sound = await api.db.upload.findFirstOrThrow({ where: { projectId, purpose: 'alert-sound', mimeType: 'audio/mpeg' } });
    const saved = await call(api, host, 'PUT', `/api/v1/projects/${projectId}/alerts`, { settings: withSound(DEFAULT_ALERT_SETTINGS, 'upload', sound.id) });
    expect(saved.status).toBe(200);
    expect((saved.body as { settings: AlertSettings }).settings.follow).toMatchObject({ sound: 'upload', soundUploadId: sound.id });

    const refused = async (settings: AlertSettings) => (await call(api, host, 'PUT', `/api/v1/projects/${projectId}/alerts`, { settings })).status;
    expect(await refused(withSound(DEFAULT_ALERT_SETTINGS, 'upload', null))).toBe(400);
    const foreign = await upload(otherProjectId, 'alert-sound', 'ding.wav', readFileSync(file('ding.wav')));
    expect(foreign.status).toBe(201);
    expect(await refused(withSound(DEFAULT_ALERT_SETTINGS, 'upload', foreign.body.id))).toBe(400);
    const logo = await api.db.upload.create({
      data: {
        projectId,
        ownerId: host.id,
        purpose: 'logo',
        kind: 'image',
        mimeType: 'image/png',
        name: 'x.png',
        sizeBytes: 1n,
        width: 1,
        height: 1,
        storageKey: `${crypto.randomUUID()}.png`,
      },
    });
    expect(await refused(withSound(DEFAULT_ALERT_SETTINGS, 'upload', logo.id))).toBe(400);
    // Still the sound saved first.
    const view = (await call(api, host, 'GET', `/api/v1/projects/${projectId}/alerts`)).body as { settings: AlertSettings };
    expect(view.settings.follow.soundUploadId).toBe(sound.id);
    // Settings saved before sounds could be uploaded (no soundUploadId) still read.
    await api.db.alertSettings.create({
      data: { projectId: otherProjectId, settings: { follow: { ...DEFAULT_ALERT_SETTINGS.follow, soundUploadId: undefined, sound: 'bell' } } },
    });
    const old = (await call(api, host, 'GET', `/api/v1/projects/${otherProjectId}/alerts`)).body as { settings: AlertSettings };
    expect(old.settings.follow).toMatchObject({ sound: 'bell', soundUploadId: null });
  });

  it('plays in the overlay: the alert names the sound, and the page reads it with its key (and nothing else)', async () => {
    const sound = await api.db.upload.findFirstOrThrow({ where: { projectId, purpose: 'alert-sound', mimeType: 'audio/mpeg' } });
    const test = await call(api, host, 'POST', `/api/v1/projects/${projectId}/alerts/test`, { type: 'follow' });
    expect(test.status).toBe(202);
    expect((test.body as { alert: AlertPlay }).alert).toMatchObject({ sound: 'upload', soundUploadId: sound.id });
    const other = await call(api, host, 'POST', `/api/v1/projects/${projectId}/alerts/test`, { type: 'sub' });
    expect((other.body as { alert: AlertPlay }).alert).toMatchObject({ sound: 'chime', soundUploadId: null });

    const { overlayUrl } = (await call(api, host, 'GET', `/api/v1/projects/${projectId}/alerts`)).body as { overlayUrl: string };
    const page = new URL(overlayUrl);
    const pageRes = await fetch(page);
    expect(pageRes.headers.get('content-security-policy')).toContain("media-src 'self'");
    expect(await pageRes.text()).toContain("location.pathname+'/sounds/'");
    const soundUrl = new URL(`${page.pathname}/sounds/${sound.id}${page.search}`, page);
    const res = await fetch(soundUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(file('ding.mp3')))).toBe(true);
    // Without the key, with another project's key, or for an upload that is not an alert sound: nothing.
    expect((await fetch(new URL(`${page.pathname}/sounds/${sound.id}`, page))).status).toBe(404);
    const otherKey = new URL(((await call(api, host, 'GET', `/api/v1/projects/${otherProjectId}/alerts`)).body as { overlayUrl: string }).overlayUrl);
    expect((await fetch(new URL(`${page.pathname}/sounds/${sound.id}${otherKey.search}`, page))).status).toBe(404);
    const logo = await api.db.upload.findFirstOrThrow({ where: { projectId, purpose: 'logo' } });
    expect((await fetch(new URL(`${page.pathname}/sounds/${logo.id}${page.search}`, page))).status).toBe(404);
  });

  it('is kept while an alert plays it: deleting it is refused in words, and allowed once the alert sounds another', async () => {
    const sound = await api.db.upload.findFirstOrThrow({ where: { projectId, purpose: 'alert-sound', mimeType: 'audio/ogg' } });
    const settings = {
      ...withSound(DEFAULT_ALERT_SETTINGS, 'upload', sound.id),
      tip: { ...DEFAULT_ALERT_SETTINGS.tip, sound: 'upload' as const, soundUploadId: sound.id },
    };
    expect((await call(api, host, 'PUT', `/api/v1/projects/${projectId}/alerts`, { settings })).status).toBe(200);
    const refused = await call(api, host, 'DELETE', `/api/v1/projects/${projectId}/uploads/${sound.id}`);
    expect(refused).toMatchObject({
      status: 409,
      body: {
        error: {
          code: 'UPLOAD_IN_USE',
          message: 'This sound plays with the Follow, Tip alerts. Choose another sound there first.',
          details: { alerts: ['follow', 'tip'] },
        },
      },
    });
    expect(await api.db.upload.count({ where: { id: sound.id } })).toBe(1);
    // Once the alerts sound others, it may go.
    const others = {
      ...settings,
      follow: { ...settings.follow, sound: 'bell' as const, soundUploadId: null },
      tip: { ...settings.tip, sound: 'chime' as const, soundUploadId: null },
    };
    expect((await call(api, host, 'PUT', `/api/v1/projects/${projectId}/alerts`, { settings: others })).status).toBe(200);
    expect((await call(api, host, 'DELETE', `/api/v1/projects/${projectId}/uploads/${sound.id}`)).status).toBe(204);
    expect(await api.db.upload.count({ where: { id: sound.id } })).toBe(0);
  });
});
