import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { type Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import pg from 'pg';
import { CHROMIUM_ARGS } from './playwright.config.ts';
import { openNewStudio, signIn } from './support/studio.ts';

test.use({ launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS }, viewport: { width: 1440, height: 900 } });

const SHOTS = process.env.ONAIR_E2E_SHOTS;
const block = (page: Page) => page.getByRole('region', { name: 'Auto Live' });
let encoder: ChildProcess | undefined;
let projectId: string | undefined;

test.afterEach(async ({ page, context }) => {
  encoder?.kill('SIGKILL');
  await page.close();
  if (projectId) await context.request.delete(`/api/v1/projects/${projectId}/session`);
});

async function linkTwitch(projectId: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.ONAIR_E2E_DATABASE_URL });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO destinations (id, project_id, type, provider_id, name, enabled, username, settings, updated_at) VALUES ($1, $2, 'Twitch', 'twitchtv', 'Twitch', true, 'console_player', $3, now())`,
      [randomUUID(), projectId, JSON.stringify({ title: 'Console night' })],
    );
  } finally {
    await client.end();
  }
}

test('Auto Live: switched on with a Twitch destination, an encoder publishing to the shown key starts the broadcast, and the studio shows the feed', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await signIn(context.request, `auto-live-${randomUUID()}@example.test`);
  projectId = await openNewStudio(page, 'Console show');
  // A camera-only project: no Auto Live line in the side column; its settings open from the console button.
  const settings = page.getByRole('dialog', { name: 'Auto Live, encoder and console' });
  await expect(block(page)).toHaveCount(0);
  await page.getByRole('region', { name: 'Destinations' }).getByRole('button', { name: 'Stream from a console or encoder' }).click();
  // Without an enabled Twitch destination the toggle stays off ('Twitch required').
  await expect(settings.getByRole('switch', { name: 'Auto Live' })).toBeDisabled();
  await expect(settings.getByRole('status', { name: 'Ingest status' })).toHaveText('Waiting for a feed.');
  await settings.getByRole('button', { name: 'Close' }).click();

  expect((await context.request.post(`/api/v1/projects/${projectId}/destinations`, { data: { type: 'Local' } })).ok()).toBe(true);
  // A linked Twitch channel: the e2e stack has no Twitch OAuth client, so the row is written as linking leaves it.
  await linkTwitch(projectId);
  await page.reload();
  // Relevant now: one line in the side column.
  const toggle = block(page).getByRole('switch', { name: 'Auto Live' });
  await expect(toggle).toBeEnabled();
  await toggle.click();
  await expect(toggle).toBeChecked();
  await expect(block(page).getByRole('status', { name: 'Ingest status' })).toHaveText('Waiting for a feed: the broadcast starts when it arrives.');

  // The key is hidden until asked for; the encoder takes the address and key the studio shows
  // (in the settings dialog, so the side column keeps its room).
  await block(page).getByRole('button', { name: 'Encoder and console settings' }).click();
  await expect(settings.getByLabel('Stream key', { exact: true })).toHaveText('•'.repeat(16));
  await settings.getByRole('button', { name: 'Show stream key' }).click();
  const key = (await settings.getByLabel('Stream key', { exact: true }).textContent()) ?? '';
  expect(key).toMatch(/^live_/);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/auto-live-waiting.png` });

  // biome-ignore format: the arguments stay in option-value pairs, as ffmpeg reads them
  encoder = spawn('ffmpeg', [
    '-hide_banner', '-loglevel', 'error', '-re',
    '-f', 'lavfi', '-i', 'testsrc2=s=1280x720:r=30', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '30', '-bf', '0', '-pix_fmt', 'yuv420p', '-b:v', '1500k',
    '-c:a', 'aac', '-ar', '48000', '-f', 'flv', `${process.env.ONAIR_E2E_INGEST}/ingest/${key}`,
  ], { stdio: 'ignore' });
  await expect(settings.getByRole('status', { name: 'Ingest status' })).toContainText('Receiving from your encoder: H.264 · AAC · 1280×720', {
    timeout: 45_000,
  });
  await settings.getByRole('button', { name: 'Close' }).click();
  // No click: the broadcast started by itself; on air, Auto Live's state sits beside the timer.
  await expect(page.getByRole('timer', { name: 'Broadcast time' })).toBeVisible({ timeout: 30_000 });
  const indicator = page.getByRole('button', { name: /^Auto Live, encoder and console settings \(Auto Live on: Receiving/ });
  await expect(indicator).toBeVisible();
  if (SHOTS) {
    // The program preview follows a moment later (the pipeline's first keyframe of the feed).
    await page.waitForTimeout(4000);
    await page.screenshot({ path: `${SHOTS}/auto-live-receiving.png` });
  }

  await indicator.click();
  await settings.getByRole('button', { name: 'Xbox guide' }).click();
  const guide = page.getByRole('dialog', { name: 'Stream from your Xbox' });
  await expect(guide.getByRole('listitem')).toHaveCount(3);
  await expect(guide.getByRole('button', { name: 'Watch Tutorial' })).toBeVisible();
  await expect(guide.getByRole('button', { name: 'Help Center' })).toBeVisible();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/auto-live-xbox-guide.png` });
  await guide.getByRole('button', { name: 'Got it' }).click();
  await expect(guide).toBeHidden();

  // The encoder stops: the studio says so at once, and the broadcast goes on through the grace period.
  encoder.kill('SIGINT');
  await expect(settings.getByRole('status', { name: 'Ingest status' })).toContainText('Feed dropped', { timeout: 20_000 });
  await settings.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('timer', { name: 'Broadcast time' })).toBeVisible();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/auto-live-dropped.png` });
});
