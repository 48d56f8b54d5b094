/**
 * Pictures of overlay image widgets (issue 23) through issue 19's uploads store, as the creator
 * site's pictures (issue 23b): uploaded by the owner or a collaborator with the Overlay edit group,
 * refused with words when too large or not an image (an SVG, an HTML page named .png), served as
 * image/png with nosniff to whoever holds the overlay's key — under the page's own path, so the
 * studio's signed address opens them too — and only while a saved image widget names them.
 * Real PostgreSQL, Redis, ffmpeg and the disk store.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWidget, type Overlay, type Upload, type Widget } from '@onair/protocol';
import { verifyOwnPageUrl } from '@onair/runtime';
import { collaboratorWith } from './helpers/partner.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

const MAX_IMAGE_BYTES = 300 * 1024;
const PAGE_SECRET = 'overlay-images-test-page-secret-0123456789';

let api: StudioApi;
let owner: TestUser;
let other: TestUser;
let work = '';
let store = '';
let red: Buffer;
let large: Buffer;

type Answer = { status: number; body: { error?: { code: string; message: string } } & Partial<Upload> };

async function uploadImage(user: TestUser | null, channelId: string, name: string, body: Buffer): Promise<Answer> {
  const res = await fetch(`${api.url}/api/v1/partner/channels/${channelId}/overlay-images?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { ...(user ? { cookie: user.cookie } : {}), 'content-type': 'application/octet-stream' },
    body,
  });
  return { status: res.status, body: (await res.json()) as never };
}

const storedFiles = () =>
  readdirSync(store)
    .filter((f) => !f.startsWith('.'))
    .sort();
const overlaysPath = (channelId: string) => `/api/v1/partner/channels/${channelId}/overlays`;

async function createOverlay(user: TestUser): Promise<Overlay> {
  const res = await call(api, user, 'POST', overlaysPath(user.id), { name: 'Pictures' });
  expect(res.status).toBe(201);
  return res.body as Overlay;
}

const imageWidget = (image: { uploadId: string | null; url?: string }): Widget =>
  ({ ...newWidget('image', randomUUID()), url: image.url ?? '', uploadId: image.uploadId }) as Widget;
const save = (user: TestUser, o: Overlay, widgets: Widget[]) =>
  call(api, user, 'PUT', `${overlaysPath(o.channelId)}/${o.id}`, { name: o.name, widgets, triggerAccess: o.triggerAccess });
/** An uploaded picture's address under an overlay page address (its query, key and any signature, kept). */
const imageUnder = (pageUrl: string, uploadId: string) => {
  const page = new URL(pageUrl);
  return `${page.origin}${page.pathname}/images/${uploadId}${page.search}`;
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'onair-overlay-images-'));
  store = join(work, 'store');
  execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=red:s=320x180', '-frames:v', '1', join(work, 'red.png')]);
  // Noise does not compress: a PNG well over the limit.
  execFileSync('ffmpeg', [
    '-nostdin',
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'nullsrc=s=640x480,geq=random(1)*255:128:128',
    '-frames:v',
    '1',
    join(work, 'noise.png'),
  ]);
  red = readFileSync(join(work, 'red.png'));
  large = readFileSync(join(work, 'noise.png'));
  expect(large.length).toBeGreaterThan(MAX_IMAGE_BYTES);
  api = await startStudioApi({
    env: { UPLOADS_DIR: store, UPLOAD_MAX_IMAGE_BYTES: String(MAX_IMAGE_BYTES), UPLOAD_QUOTA_BYTES: String(50 * 1024 * 1024), RENDER_PAGE_SECRET: PAGE_SECRET },
  });
  owner = await createTestUser(api);
  other = await createTestUser(api);
});
afterAll(async () => {
  await api?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('overlay image widget pictures', () => {
  it('are uploaded into the uploads store and served under the overlay page to its key holders once a saved widget shows them', async () => {
    const o = await createOverlay(owner);
    expect(o).toMatchObject({ maxImageBytes: MAX_IMAGE_BYTES, images: {} });
    const uploaded = await uploadImage(owner, owner.id, 'logo.png', red);
    expect(uploaded).toMatchObject({
      status: 201,
      body: { projectId: null, purpose: 'overlay', kind: 'image', mimeType: 'image/png', width: 320, height: 180, name: 'logo.png' },
    });
    const id = uploaded.body.id!;
    expect(storedFiles()).toContain(`${id}.png`);
    expect(await api.db.upload.findUniqueOrThrow({ where: { id } })).toMatchObject({ ownerId: owner.id, projectId: null });

    // Not on a saved widget yet: the key opens nothing.
    const imageUrl = imageUnder(o.url, id);
    expect((await fetch(imageUrl)).status).toBe(404);

    const saved = await save(owner, o, [imageWidget({ uploadId: id })]);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((saved.body as Overlay).images).toEqual({ [id]: { name: 'logo.png', width: 320, height: 180 } });

    const page = await fetch(o.url);
    expect(page.headers.get('content-security-policy')).toContain("img-src 'self'");
    const image = await fetch(imageUrl);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(image.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.from(await image.arrayBuffer()).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

    // The studio's signed address: the picture under it carries a signature the render worker accepts, and opens.
    const studioImage = imageUnder(o.studioUrl, id);
    expect(verifyOwnPageUrl(PAGE_SECRET, studioImage)).toBe(true);
    expect((await fetch(studioImage)).status).toBe(200);

    // Without the key, with another key, under another overlay of the same channel, or after a new address: nothing.
    expect((await fetch(imageUrl.replace(/\?.*$/, ''))).status).toBe(404);
    expect((await fetch(imageUrl.replace(/key=[^&]+/, 'key=AAAA'))).status).toBe(404);
    const second = await createOverlay(owner);
    expect((await fetch(imageUnder(second.url, id))).status).toBe(404);
    const rotated = (await call(api, owner, 'POST', `${overlaysPath(owner.id)}/${o.id}/secret`)).body as Overlay;
    expect((await fetch(imageUrl)).status).toBe(404);
    expect((await fetch(imageUnder(rotated.url, id))).status).toBe(200);
    // Taken off the overlay: no longer served.
    expect((await save(owner, rotated, [imageWidget({ uploadId: null, url: 'https://example.com/logo.png' })])).status).toBe(200);
    expect((await fetch(imageUnder(rotated.url, id))).status).toBe(404);
    expect((await fetch(imageUnder(rotated.url, 'not-a-uuid'))).status).toBe(404);
  });

  it('refuses a picture over the limit before reading it, an SVG, and an HTML page named .png, with words, leaving the store as it was', async () => {
    const before = storedFiles();
    expect(await uploadImage(owner, owner.id, 'noise.png', large)).toMatchObject({
      status: 413,
      body: { error: { code: 'UPLOAD_TOO_LARGE', message: 'This file is too large: images can be up to 300 KB.' } },
    });
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
    const refusedSvg = await uploadImage(owner, owner.id, 'logo.svg', svg);
    expect(refusedSvg.status).toBe(415);
    expect(refusedSvg.body.error?.code).toBe('UPLOAD_TYPE_UNSUPPORTED');
    const html = Buffer.from('<html><body><script>alert(1)</script></body></html>'.repeat(100));
    const refusedHtml = await uploadImage(owner, owner.id, 'page.png', html);
    expect(refusedHtml.status).toBe(415);
    expect(refusedHtml.body.error?.message).toMatch(/PNG, JPEG, WebP or GIF/);
    expect((await uploadImage(owner, owner.id, 'cut.png', red.subarray(0, 20))).status).toBeGreaterThanOrEqual(400);
    expect(storedFiles()).toEqual(before);
  });

  it('an image widget can only show an upload of this channel’s overlays, and needs a picture or an address', async () => {
    const o = await createOverlay(owner);
    const theirs = await uploadImage(other, other.id, 'theirs.png', red);
    expect(theirs.status).toBe(201);
    expect(await save(owner, o, [imageWidget({ uploadId: theirs.body.id! })])).toMatchObject({
      status: 400,
      body: { error: { code: 'VALIDATION_FAILED', details: { issues: [{ path: ['widgets', '0', 'uploadId'], message: 'Upload the picture again' }] } } },
    });
    expect((await save(owner, o, [imageWidget({ uploadId: randomUUID() })])).status).toBe(400);
    // A picture uploaded for the creator site is not an overlay picture.
    const sitePicture = await fetch(`${api.url}/api/v1/partner/channels/${owner.id}/site/images?name=site.png`, {
      method: 'POST',
      headers: { cookie: owner.cookie, 'content-type': 'application/octet-stream' },
      body: red,
    });
    expect(sitePicture.status).toBe(201);
    expect((await save(owner, o, [imageWidget({ uploadId: ((await sitePicture.json()) as Upload).id })])).status).toBe(400);
    const neither = await save(owner, o, [imageWidget({ uploadId: null })]);
    expect(neither.status).toBe(400);
    expect(JSON.stringify(neither.body)).toContain('Enter an image address or upload a picture');
    const mine = await uploadImage(owner, owner.id, 'mine.png', red);
    const both = await save(owner, o, [imageWidget({ uploadId: mine.body.id!, url: 'https://example.com/a.png' })]);
    expect(both.status).toBe(400);
    expect(JSON.stringify(both.body)).toContain('Use an address or an uploaded picture, not both');
  });

  it('are uploaded by a collaborator with the Overlay edit group; refused to a viewer of overlays, another channel’s collaborator, and signed out', async () => {
    const before = storedFiles();
    const editor = await collaboratorWith(api, owner, ['overlay.edit']);
    const allowed = await uploadImage(editor.user, owner.id, 'by-editor.png', red);
    expect(allowed.status).toBe(201);
    // It counts against the channel owner's storage, not the collaborator's.
    expect(await api.db.upload.findUniqueOrThrow({ where: { id: allowed.body.id! } })).toMatchObject({ ownerId: owner.id, purpose: 'overlay' });

    const viewer = await collaboratorWith(api, owner, ['overlay.view', 'creator-site', 'analytics']);
    const refused = await uploadImage(viewer.user, owner.id, 'no.png', red);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN' });
    expect(refused.body.error?.message).toMatch(/Overlay/);
    const elsewhere = await collaboratorWith(api, other, ['overlay.edit']);
    expect(await uploadImage(elsewhere.user, owner.id, 'no.png', red)).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
    expect(await uploadImage(null, owner.id, 'no.png', red)).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHENTICATED' } } });
    expect(storedFiles()).toEqual([...before, `${allowed.body.id}.png`].sort());
  });
});
