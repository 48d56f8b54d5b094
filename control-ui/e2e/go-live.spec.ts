import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import type { DestinationView } from '@onair/protocol';
import { startRtmpServer, type RunningRtmpServer } from '../../embedded/src/rtmp-server.ts';
import { CHROMIUM_ARGS } from './playwright.config.ts';
import { grantPremium, openNewStudio, signIn, confirmEndBroadcast } from './support/studio.ts';
import { localStreamUrl } from './support/local-stream.ts';

test.use({ launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS } });

/** Whether an RTMP server is receiving a video stream under this URL: ffprobe plays it, as a viewer would. */
function receives(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type', '-of', 'csv=p=0', url], { timeout: 8000 }, (err, stdout) =>
      resolve(!err && stdout.includes('video')),
    );
  });
}

async function until(what: string | (() => string), check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

const panel = (page: Page) => page.getByRole('region', { name: 'Destinations' });

let dir: string;
const receivers: RunningRtmpServer[] = [];

test.beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'onair-go-live-'));
  receivers.push(await startRtmpServer({ dir: join(dir, 'one'), acceptKeys: ['key-one'] }));
  receivers.push(await startRtmpServer({ dir: join(dir, 'two'), acceptKeys: ['key-two'] }));
});
test.afterAll(async () => {
  for (const r of receivers) await r.stop();
  await rm(dir, { recursive: true, force: true });
});

test('Go Live pushes to two custom RTMP servers and the local destination; one toggled off stops while the others go on; End Broadcast stops all', async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  const [one, two] = receivers as [RunningRtmpServer, RunningRtmpServer];
  const email = `live-${randomUUID()}@example.test`;
  await signIn(context.request, email);
  await grantPremium(context.request);
  const projectId = await openNewStudio(page, 'Going live');

  const add = async (data: object) => {
    const res = await context.request.post(`/api/v1/projects/${projectId}/destinations`, { data });
    expect(res.status()).toBe(201);
    return (await res.json()) as DestinationView;
  };
  const first = await add({ type: 'CustomRTMP', name: 'Server one', rtmpUrl: `rtmp://127.0.0.1:${one.port}/${one.application}`, streamKey: 'key-one' });
  await add({ type: 'CustomRTMP', name: 'Server two', rtmpUrl: `rtmp://127.0.0.1:${two.port}/${two.application}`, streamKey: 'key-two' });
  await add({ type: 'Local' });
  // This project's own Local stream (another project's is another name on the same server).
  const localUrl = await localStreamUrl(context.request, projectId);
  // The other adds reached this studio over /ws.
  await expect(panel(page).getByTestId('destination-row')).toHaveCount(3);

  await panel(page).getByRole('button', { name: 'Go Live' }).click();
  await expect(panel(page).getByRole('button', { name: 'End Broadcast' })).toBeVisible({ timeout: 30_000 });
  await expect(panel(page).getByRole('timer')).toHaveText(/^0:00:\d\d$/);

  const urls = { one: one.url('key-one'), two: two.url('key-two'), local: localUrl };
  let received: Record<string, boolean> = {};
  let session = '';
  await until(
    // On failure, say which receivers got nothing and where the session stands (waiting = no worker admitted it).
    () => `all three receive the stream (receiving: ${JSON.stringify(received)}; session: ${session})`,
    async () => {
      received = Object.fromEntries(await Promise.all(Object.entries(urls).map(async ([name, url]) => [name, await receives(url)] as const)));
      session = await (await context.request.get(`/api/v1/projects/${projectId}/session`)).text();
      return Object.values(received).every(Boolean);
    },
    120_000,
  );

  // Stream health from the pipeline, per destination: a green light, a bitrate, the reconnect count.
  for (const name of ['Server one', 'Server two', 'Local preview server']) {
    const health = panel(page).getByRole('status', { name: `${name} stream health` });
    await expect(health).toContainText('Live', { timeout: 30_000 });
    await expect(health).toContainText(/\d+(\.\d)? (kbps|Mbps)/);
    await expect(health).toContainText(/\d+ reconnects/);
  }

  // Server one off while live: it stops receiving, the others go on.
  await panel(page).locator(`[data-destination-id="${first.id}"]`).getByRole('switch').click();
  await until('server one stops receiving', async () => !(await receives(urls.one)), 60_000);
  // A probe can miss under load (8 s budget on shared cores); the stream itself must still be there.
  await until('server two still receives', () => receives(urls.two), 20_000);
  await until('the local destination still receives', () => receives(urls.local), 20_000);

  await panel(page).getByRole('button', { name: 'End Broadcast' }).click();
  await confirmEndBroadcast(page);
  await expect(panel(page).getByRole('button', { name: 'Go Live' })).toBeVisible({ timeout: 30_000 });
  await until('nothing receives', async () => !(await receives(urls.two)) && !(await receives(urls.local)), 60_000);

  // Free the stack's media worker for the flows after this one.
  await page.close();
  await context.request.delete(`/api/v1/projects/${projectId}/session`);
});
