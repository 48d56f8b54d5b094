import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { CHROMIUM_ARGS } from './playwright.config.ts';
import { openNewStudio, signIn } from './support/studio.ts';

// Uploaded alert sounds (issue 39 item 5d) as a creator meets them: the Alerts dialog uploads a
// sound through the uploads module, the Follow alert's Sound list offers it next to the built-in
// ones, and the alerts overlay page (as the render worker opens it) plays it on a test alert.

test.use({ launchOptions: { executablePath: '/usr/bin/chromium', args: [...CHROMIUM_ARGS, '--autoplay-policy=no-user-gesture-required'] } });

const SHOTS = process.env.ONAIR_E2E_SHOTS;

async function shots(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  const before = page.viewportSize();
  for (const size of [
    { width: 1280, height: 720 },
    { width: 1440, height: 900 },
  ]) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `${SHOTS}/alert-sounds-${name}-${size.width}.png` });
  }
  if (before) await page.setViewportSize(before);
}

test('uploads a sound in the Alerts dialog, chooses it for follows, and the overlay plays it on a test alert', async ({ page, context }) => {
  test.setTimeout(90_000);
  const work = mkdtempSync(join(tmpdir(), 'onair-e2e-sound-'));
  const sound = join(work, 'tada.mp3');
  execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=880:duration=1', '-c:a', 'libmp3lame', sound]);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(context.request, `sounds-${randomUUID()}@example.test`);
  const projectId = await openNewStudio(page, 'Sounds');
  try {
    await page.getByRole('tab', { name: 'Event List' }).click();
    await page.getByRole('region', { name: 'Events feed' }).getByRole('button', { name: 'Alerts in the program' }).click();
    const dialog = page.getByRole('dialog', { name: 'Alerts' });
    await expect(dialog.getByTestId('alert-sounds')).toBeVisible();
    await dialog.getByLabel('Upload an alert sound').setInputFiles(sound);
    await expect(dialog.getByText('tada.mp3 is ready: choose it as the sound of an alert.')).toBeVisible({ timeout: 20_000 });
    await expect(dialog.getByTestId('alert-sounds')).toContainText('Your sounds: tada.mp3');

    const follow = dialog.getByTestId('alert-row-follow');
    await follow.getByLabel('Sound').click();
    await expect(page.getByRole('option', { name: 'Chime' })).toBeVisible();
    await page.getByRole('option', { name: 'tada.mp3' }).click();
    await dialog.getByRole('button', { name: 'Save alerts' }).click();
    await expect(dialog.getByText('Alerts saved')).toBeVisible();
    await shots(page, 'dialog');

    const view = (await (await context.request.get(`/api/v1/projects/${projectId}/alerts`)).json()) as {
      overlayUrl: string;
      settings: { follow: { sound: string; soundUploadId: string | null } };
    };
    expect(view.settings.follow.sound).toBe('upload');
    const uploadId = view.settings.follow.soundUploadId!;

    // The overlay page, as the render worker opens it: the test alert plays the uploaded sound, read with the page's key.
    const overlay = await context.newPage();
    await overlay.goto(view.overlayUrl);
    await expect.poll(async () => (await context.request.post(`/api/v1/projects/${projectId}/alerts/test`, { data: { type: 'follow' } })).status()).toBe(202);
    const card = overlay.getByTestId('alert-card');
    await expect(card).toHaveAttribute('data-sound', uploadId, { timeout: 10_000 });
    await expect
      .poll(() => overlay.evaluate((id) => performance.getEntriesByType('resource').some((r) => r.name.includes(`/sounds/${id}`)), uploadId))
      .toBe(true);
    await overlay.close();
  } finally {
    rmSync(work, { recursive: true, force: true });
    await context.request.delete(`/api/v1/projects/${projectId}/session`);
  }
});
