import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataExport } from '@onair/protocol';
import { latestMessage } from './helpers/browser.ts';
import { emailOf, personalInfo } from './helpers/partner.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

const HOUR = 60 * 60 * 1000;
let api: StudioApi;
let offsetMs = 0;

beforeAll(async () => {
  api = await startStudioApi({ now: () => new Date(Date.now() + offsetMs) });
});
afterAll(async () => {
  await api?.close();
});

const EXPORTS = '/api/v1/partner/exports';

async function waitUntilSettled(user: TestUser, id: string): Promise<DataExport> {
  for (;;) {
    const { exports } = (await call(api, user, 'GET', EXPORTS)).body as { exports: DataExport[] };
    const found = exports.find((e) => e.id === id)!;
    if (found.state === 'ready' || found.state === 'failed') return found;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The archive's files, read with Python's zipfile (a reader independent of the writer). */
function unzip(bytes: Buffer): Record<string, string> {
  const script =
    'import sys,zipfile,io,json\nz=zipfile.ZipFile(io.BytesIO(sys.stdin.buffer.read()))\nprint(json.dumps({n: z.read(n).decode() for n in z.namelist()}))';
  return JSON.parse(execFileSync('python3', ['-c', script], { input: bytes }).toString()) as Record<string, string>;
}

describe('data exports', () => {
  it('builds an archive of JSON and CSV in the background, CSV cells defused, downloadable by its owner only until the link expires', async () => {
    const user = await createTestUser(api);
    await call(api, user, 'POST', '/api/v1/partner/account/onboarding', personalInfo(`Exporter_${user.id.slice(0, 6)}`));
    await call(api, user, 'POST', '/api/v1/projects', { name: '=HYPERLINK("http://evil.example","x")' });

    const requested = await call(api, user, 'POST', EXPORTS);
    expect(requested).toMatchObject({ status: 202, body: { state: 'queued', progress: 0, downloadUrl: null } });
    const ready = await waitUntilSettled(user, (requested.body as DataExport).id);
    expect(ready).toMatchObject({ state: 'ready', progress: 100, expired: false, downloadUrl: `/api/v1/partner/exports/${ready.id}/download` });
    expect(new Date(ready.expiresAt!).getTime() - Date.now()).toBeGreaterThan(23 * HOUR);
    expect((await latestMessage(api.url, emailOf(user))).subject).toBe('Your OnAir data export is ready');

    const res = await fetch(`${api.url}${ready.downloadUrl}`, { headers: { cookie: user.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="?onair-export-\d{4}-\d{2}-\d{2}\.zip"?$/);
    const files = unzip(Buffer.from(await res.arrayBuffer()));
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining(['README.txt', 'json/account.json', 'csv/account.csv', 'json/projects.json', 'csv/projects.csv', 'json/partner_profile.json']),
    );
    expect(JSON.parse(files['json/projects.json']!)).toEqual([expect.objectContaining({ name: '=HYPERLINK("http://evil.example","x")' })]);
    expect(files['csv/projects.csv']).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(JSON.parse(files['json/partner_profile.json']!)).toEqual([expect.objectContaining({ username: `Exporter_${user.id.slice(0, 6)}` })]);
    // No secrets: no session tokens in the archive.
    expect(Object.values(files).join('\n')).not.toContain(user.token);

    const stranger = await createTestUser(api);
    expect((await call(api, stranger, 'GET', ready.downloadUrl!)).status).toBe(404);

    offsetMs = 25 * HOUR;
    expect(await call(api, user, 'GET', ready.downloadUrl!)).toMatchObject({
      status: 410,
      body: { error: { code: 'EXPORT_LINK_EXPIRED', message: 'This download link has expired. Ask for a new export.' } },
    });
    const listed = ((await call(api, user, 'GET', EXPORTS)).body as { exports: DataExport[] }).exports[0]!;
    expect(listed).toMatchObject({ id: ready.id, expired: true, downloadUrl: null });
    offsetMs = 0;
  });

  it('builds one export at a time', async () => {
    const user = await createTestUser(api);
    // An export already being built (written directly, so the test does not race the worker).
    await api.db.dataExport.create({ data: { userId: user.id, state: 'running', progress: 40 } });
    expect(await call(api, user, 'POST', EXPORTS)).toMatchObject({ status: 409, body: { error: { code: 'EXPORT_IN_PROGRESS' } } });
    const listed = ((await call(api, user, 'GET', EXPORTS)).body as { exports: DataExport[] }).exports;
    expect(listed).toEqual([expect.objectContaining({ state: 'running', progress: 40, downloadUrl: null })]);
    expect(await call(api, user, 'GET', `${EXPORTS}/${listed[0]!.id}/download`)).toMatchObject({ status: 409, body: { error: { code: 'EXPORT_NOT_READY' } } });
  });
});
