/**
 * Issue 55 item 3: every page opened by its address alone (chat on screen, alerts, partner
 * overlays), its event stream, its files and its refusals answer with the same security headers:
 * its own script and style only, never framed, never sniffed, never cached (files: privately), no
 * referrer. The alerts page sent neither nosniff nor frame-ancestors before. Real api, PostgreSQL,
 * Redis and the disk store.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS, newWidget, type Overlay, type Upload, type Widget } from '@onair/protocol';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let host: TestUser;
let projectId = '';
let work = '';

async function upload(path: string, name: string, body: Buffer): Promise<Upload> {
  const res = await fetch(`${api.url}${path}${path.includes('?') ? '&' : '?'}name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { cookie: host.cookie, 'content-type': 'application/octet-stream' },
    body,
  });
  expect(res.status).toBe(201);
  return (await res.json()) as Upload;
}

/** The headers of a GET (a stream's, without waiting for its end). */
async function headersOf(url: string | URL): Promise<{ status: number; headers: Headers }> {
  const abort = new AbortController();
  const res = await fetch(url, { signal: abort.signal });
  const answer = { status: res.status, headers: res.headers };
  abort.abort();
  await res.body?.cancel().catch(() => undefined);
  return answer;
}

const under = (page: URL, rest: string) => new URL(`${page.pathname}${rest}${page.search}`, page);

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'onair-signed-pages-'));
  execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=880:duration=1', '-c:a', 'libmp3lame', join(work, 'ding.mp3')]);
  execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=red:s=64x64', '-frames:v', '1', join(work, 'red.png')]);
  api = await startStudioApi({ env: { UPLOADS_DIR: join(work, 'store') } });
  host = await createTestUser(api);
  projectId = (await api.db.project.create({ data: { ownerId: host.id, name: 'Signed pages' } })).id;
});

afterAll(async () => {
  await api?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('signed pages', () => {
  it('answer every route (page, stream, file, refusal) of chat on screen, alerts and partner overlays with the same security headers', async () => {
    const chatPage = new URL(((await call(api, host, 'GET', `/api/v1/projects/${projectId}/chat/on-screen`)).body as { overlayUrl: string }).overlayUrl);

    const sound = await upload(`/api/v1/projects/${projectId}/uploads?purpose=alert-sound`, 'ding.mp3', readFileSync(join(work, 'ding.mp3')));
    const settings = { ...DEFAULT_ALERT_SETTINGS, follow: { ...DEFAULT_ALERT_SETTINGS.follow, sound: 'upload' as const, soundUploadId: sound.id } };
    expect((await call(api, host, 'PUT', `/api/v1/projects/${projectId}/alerts`, { settings })).status).toBe(200);
    const alertsPage = new URL(((await call(api, host, 'GET', `/api/v1/projects/${projectId}/alerts`)).body as { overlayUrl: string }).overlayUrl);

    const overlay = (await call(api, host, 'POST', `/api/v1/partner/channels/${host.id}/overlays`, { name: 'Pictures' })).body as Overlay;
    const picture = await upload(`/api/v1/partner/channels/${host.id}/overlay-images`, 'red.png', readFileSync(join(work, 'red.png')));
    const widget = { ...newWidget('image', randomUUID()), url: '', uploadId: picture.id } as Widget;
    const saved = await call(api, host, 'PUT', `/api/v1/partner/channels/${host.id}/overlays/${overlay.id}`, {
      name: overlay.name,
      widgets: [widget],
      triggerAccess: overlay.triggerAccess,
    });
    expect(saved.status).toBe(200);
    const overlayPage = new URL(overlay.url);

    const pages = { chatPage, alertsPage, overlayPage, studioOverlayPage: new URL(overlay.studioUrl) };
    const streams = { chatStream: under(chatPage, '/stream'), alertsStream: under(alertsPage, '/stream') };
    const files = { alertSound: under(alertsPage, `/sounds/${sound.id}`), overlayImage: under(overlayPage, `/images/${picture.id}`) };
    const withoutKey = (url: URL) => new URL(url.pathname, url);
    const refusals = {
      ...Object.fromEntries(Object.entries({ ...pages, ...streams, ...files }).map(([name, url]) => [`${name} without its key`, withoutKey(url)])),
      'chat page of an unknown project': new URL(`/overlay/chat-on-screen/${randomUUID()}${chatPage.search}`, chatPage),
      'alerts page of a malformed id': new URL(`/overlay/alerts/not-a-uuid${alertsPage.search}`, alertsPage),
      'overlay image of a malformed id': under(overlayPage, '/images/not-a-uuid'),
    };

    const common = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };
    for (const [name, url] of Object.entries(pages)) {
      const { status, headers } = await headersOf(url);
      expect(status, name).toBe(200);
      expect(Object.fromEntries(headers), name).toMatchObject({ ...common, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      const csp = (headers.get('content-security-policy') ?? '').split('; ');
      expect(csp, name).toEqual(
        expect.arrayContaining(["default-src 'none'", "frame-ancestors 'none'", "base-uri 'none'", "form-action 'none'", "connect-src 'self'"]),
      );
      expect(
        csp.find((d) => d.startsWith('script-src')),
        name,
      ).toMatch(/^script-src 'nonce-[A-Za-z0-9+/=]{24}'$/);
      expect(
        csp.find((d) => d.startsWith('style-src')),
        name,
      ).toMatch(/^style-src 'nonce-[A-Za-z0-9+/=]{24}'$/);
    }
    for (const [name, url] of Object.entries(streams)) {
      const { status, headers } = await headersOf(url);
      expect(status, name).toBe(200);
      expect(Object.fromEntries(headers), name).toMatchObject({ ...common, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' });
    }
    for (const [name, url] of Object.entries(files)) {
      const { status, headers } = await headersOf(url);
      expect(status, name).toBe(200);
      expect(headers.get('x-content-type-options'), name).toBe('nosniff');
      expect(headers.get('cache-control'), name).toMatch(/^private, max-age=\d+$/);
    }
    for (const [name, url] of Object.entries(refusals)) {
      const { status, headers } = await headersOf(url);
      expect(status, name).toBe(404);
      expect(Object.fromEntries(headers), name).toMatchObject({ ...common, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    }
  });
});
