/**
 * Pictures of the creator site (issue 23b) through issue 19's uploads store: uploaded by the owner
 * or a collaborator with the Creator Site group, refused with words when too large or not an
 * image (an SVG, an HTML page named .png), served to signed-out visitors of the published site
 * as image/png with nosniff, and nowhere else. Real PostgreSQL, Redis, ffmpeg and the disk store.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatorSite, CreatorSiteContent, Upload } from '@onair/protocol';
import { collaboratorWith, personalInfo } from './helpers/partner.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

const MAX_IMAGE_BYTES = 300 * 1024;

let api: StudioApi;
let owner: TestUser;
let other: TestUser;
let username = '';
let work = '';
let store = '';
let red: Buffer;
let large: Buffer;

type Answer = { status: number; body: { error?: { code: string; message: string } } & Partial<Upload> };

async function uploadImage(user: TestUser | null, channelId: string, name: string, body: Buffer): Promise<Answer> {
  const res = await fetch(`${api.url}/api/v1/partner/channels/${channelId}/site/images?name=${encodeURIComponent(name)}`, {
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
const sitePath = (channelId: string) => `/api/v1/partner/channels/${channelId}/site`;
const imageBlock = (uploadId: string | null, style: 'banner' | 'picture' = 'banner') => ({
  kind: 'image' as const,
  id: randomUUID(),
  title: 'Me <b>live</b>',
  uploadId,
  alt: 'Ada at the <desk>',
  style,
});
const content = (blocks: CreatorSiteContent['blocks'], published = true): CreatorSiteContent => ({ published, headline: '', blocks });

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'onair-site-images-'));
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
  api = await startStudioApi({ env: { UPLOADS_DIR: store, UPLOAD_MAX_IMAGE_BYTES: String(MAX_IMAGE_BYTES), UPLOAD_QUOTA_BYTES: String(50 * 1024 * 1024) } });
  owner = await createTestUser(api);
  other = await createTestUser(api);
  username = `pics_${owner.id.slice(0, 8)}`;
  expect((await call(api, owner, 'POST', '/api/v1/partner/account/onboarding', personalInfo(username))).status).toBe(200);
});
afterAll(async () => {
  await api?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('creator site pictures', () => {
  it('the editor is told the largest picture accepted', async () => {
    const site = (await call(api, owner, 'GET', sitePath(owner.id))).body as CreatorSite;
    expect(site).toMatchObject({ maxImageBytes: MAX_IMAGE_BYTES, images: {} });
  });

  it('are uploaded into the uploads store, shown on the published site and served to a signed-out visitor as a PNG', async () => {
    const uploaded = await uploadImage(owner, owner.id, 'banner.png', red);
    expect(uploaded).toMatchObject({
      status: 201,
      body: { projectId: null, purpose: 'site', kind: 'image', mimeType: 'image/png', width: 320, height: 180, name: 'banner.png' },
    });
    const id = uploaded.body.id!;
    expect(storedFiles()).toContain(`${id}.png`);
    // The owner's storage counts it (issue 19's quota is per account).
    const row = await api.db.upload.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ ownerId: owner.id, projectId: null });

    const imageUrl = `${api.url}/c/${username}/images/${id}`;
    // Not on the page yet, the site not published: nobody outside sees it.
    expect((await fetch(imageUrl)).status).toBe(404);

    const saved = await call(api, owner, 'PUT', sitePath(owner.id), content([imageBlock(id), imageBlock(id, 'picture')]));
    expect(saved.status).toBe(200);
    expect((saved.body as CreatorSite).images[id]).toEqual({ name: 'banner.png', width: 320, height: 180, url: imageUrl });

    const page = await fetch(`${api.url}/c/${username}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("img-src 'self'");
    const html = await page.text();
    expect(html).toContain(`<img src="/c/${username}/images/${id}" alt="Ada at the &lt;desk&gt;">`);
    expect(html).toContain('<figcaption>Me &lt;b&gt;live&lt;/b&gt;</figcaption>');
    expect(html).toContain('<h2>Me &lt;b&gt;live&lt;/b&gt;</h2>');

    const image = await fetch(imageUrl);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(image.headers.get('content-security-policy')).toContain('sandbox');
    const bytes = Buffer.from(await image.arrayBuffer());
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

    // Unpublished again: the picture goes with the page.
    expect((await call(api, owner, 'PUT', sitePath(owner.id), content([imageBlock(id)], false))).status).toBe(200);
    expect((await fetch(imageUrl)).status).toBe(404);
    expect((await call(api, owner, 'PUT', sitePath(owner.id), content([imageBlock(id)]))).status).toBe(200);
    expect((await fetch(imageUrl)).status).toBe(200);
    // Another path form or another creator's name does not reach it.
    expect((await fetch(`${api.url}/c/someone_else/images/${id}`)).status).toBe(404);
    expect((await fetch(`${api.url}/c/${username}/images/not-a-uuid`)).status).toBe(404);
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
    const video = readFileSync(join(work, 'red.png')).subarray(0, 20);
    expect((await uploadImage(owner, owner.id, 'cut.png', video)).status).toBeGreaterThanOrEqual(400);
    expect(storedFiles()).toEqual(before);
  });

  it('a picture block can only show an upload of this channel’s site', async () => {
    const elsewhere = await uploadImage(other, other.id, 'theirs.png', red);
    expect(elsewhere.status).toBe(201);
    const refused = await call(api, owner, 'PUT', sitePath(owner.id), content([imageBlock(elsewhere.body.id!)]));
    expect(refused).toMatchObject({
      status: 400,
      body: { error: { code: 'VALIDATION_FAILED', details: { issues: [{ path: ['blocks', '0', 'uploadId'] }] } } },
    });
    expect((await call(api, owner, 'PUT', sitePath(owner.id), content([imageBlock(randomUUID())]))).status).toBe(400);
    // A block waiting for its picture is fine, and shows nothing to visitors.
    expect((await call(api, owner, 'PUT', sitePath(owner.id), content([imageBlock(null)]))).status).toBe(200);
    expect(await (await fetch(`${api.url}/c/${username}`)).text()).not.toContain('data-block="image"');
  });

  it('are uploaded by a collaborator with the Creator Site group; refused to one without it, to another channel’s collaborator, and signed out', async () => {
    const before = storedFiles();
    const editor = await collaboratorWith(api, owner, ['creator-site']);
    const allowed = await uploadImage(editor.user, owner.id, 'by-editor.png', red);
    expect(allowed.status).toBe(201);
    // It counts against the channel owner's storage, not the collaborator's.
    expect(await api.db.upload.findUniqueOrThrow({ where: { id: allowed.body.id! } })).toMatchObject({ ownerId: owner.id });

    const overlays = await collaboratorWith(api, owner, ['overlay.edit', 'analytics']);
    expect(await uploadImage(overlays.user, owner.id, 'no.png', red)).toMatchObject({
      status: 403,
      body: {
        error: { code: 'FORBIDDEN', message: 'Your access to this channel does not include Creator Site (Edit website). Ask the channel owner to grant it.' },
      },
    });
    const elsewhere = await collaboratorWith(api, other, ['creator-site']);
    expect(await uploadImage(elsewhere.user, owner.id, 'no.png', red)).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
    expect(await uploadImage(null, owner.id, 'no.png', red)).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHENTICATED' } } });
    expect(storedFiles()).toEqual([...before, `${allowed.body.id}.png`].sort());
  });
});
