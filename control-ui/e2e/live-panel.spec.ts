// Issue 52: the studio's side column during a live show. A creator with three destinations (Twitch
// in test mode, the Local preview server, and a custom server that refuses the stream) plus a
// YouTube channel never signed in, and Auto Live on: Go Live names what is not ready (Twitch is
// signed in from the check, YouTube skipped); live, the destinations are one line each, the failing
// one's error reads in one line with Details, and the chat keeps the column's height (measured in the
// page) at 1280×720 and 1440×900; the arrangement survives a reload; End Broadcast asks once, then
// sums the broadcast up with its recording.
import { mkdtemp, rm } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Locator, type Page } from '@playwright/test';
import type { DestinationView } from '@onair/protocol';
import { expect, test } from './support/fixtures.ts';
import { fakeMediaLaunchOptions } from './support/fake-media.ts';
import { grantPremium, openNewStudio, publicOrigin, signIn } from './support/studio.ts';

const SHOTS = process.env.ONAIR_E2E_SHOTS;
const TWITCH_CHAT = () => process.env.ONAIR_E2E_CHAT_TWITCH!;

// The Connect popup comes back to the api's public address: the whole flow stays on that origin.
// A creator's camera and microphone (the fake devices): the column shows what it shows in a real show.
test.use({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern: none here.
  baseURL: async ({}, use) => use(publicOrigin()),
  viewport: { width: 1280, height: 720 },
  launchOptions: fakeMediaLaunchOptions(),
  permissions: ['camera', 'microphone'],
});

async function control<T = unknown>(url: string, action: string, body: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch(`${url}/_double/${action}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.ok, `${action}: ${res.status}`).toBe(true);
  return ((await res.json()) as { result: T }).result;
}

async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/live-panel-${name}.png` });
}

/** The chat list's height and how many messages show whole inside it, measured in the page. */
async function chatRoom(list: Locator): Promise<{ height: number; whole: number }> {
  return list.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const whole = [...el.children].filter((row) => {
      const r = row.getBoundingClientRect();
      return r.height > 0 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
    }).length;
    return { height: box.height, whole };
  });
}

let dir: string | undefined;
test.afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('live with three destinations, one failing, and Auto Live: Go Live checks first, the chat keeps its height, End asks and sums up', async ({
  page,
  context,
}) => {
  test.setTimeout(150_000);
  dir = await mkdtemp(join(tmpdir(), 'onair-live-panel-'));
  await signIn(context.request, `live-panel-${randomUUID()}@example.test`);
  await grantPremium(context.request);
  const projectId = await openNewStudio(page, 'Live panel');
  const destinations = page.getByRole('region', { name: 'Destinations' });
  const add = async (data: object) => {
    const res = await context.request.post(`/api/v1/projects/${projectId}/destinations`, { data });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()) as DestinationView;
  };
  // A camera-only project: no Auto Live line; the console's way in is the button beside Add Destination.
  await expect(destinations.getByRole('button', { name: 'Stream from a console or encoder' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Auto Live' })).toHaveCount(0);

  await add({ type: 'Local' });
  // Nothing listens on the discard port: this output fails with its reason while the others go on.
  const failing = await add({ type: 'CustomRTMP', name: 'Backup server in the office basement', rtmpUrl: 'rtmp://127.0.0.1:9/live', streamKey: 'k' });
  const twitch = await add({ type: 'Twitch', settings: { title: 'Live panel show' } });
  const youtube = await add({ type: 'YouTube', settings: { title: 'Live panel show' } });
  await expect(destinations.getByTestId('destination-row')).toHaveCount(4);
  await destinations.getByRole('switch', { name: 'Record' }).click();
  await shot(page, 'off-air-1280');

  // Go Live checks first: Twitch and YouTube are not signed in.
  await destinations.getByRole('button', { name: 'Go Live' }).click();
  const check = page.getByRole('dialog', { name: 'Before you go live' });
  await expect(check.getByTestId('go-live-problem')).toHaveCount(2);
  await expect(check.getByTestId('go-live-problem').filter({ hasText: 'YouTube' })).toContainText('Requires authentication');
  await expect(check.getByRole('button', { name: 'Go Live' })).toBeDisabled();
  await shot(page, 'go-live-check-1280');
  // Fixed from the check: Twitch's Connect popup and the test-mode double's consent page.
  const channel = `panel_${randomUUID().slice(0, 6)}`;
  const twitchProblem = check.getByTestId('go-live-problem').filter({ hasText: 'Twitch' });
  const [popup] = await Promise.all([context.waitForEvent('page'), twitchProblem.getByRole('button', { name: 'Sign in' }).click()]);
  await popup.getByLabel('Test account name').fill(channel);
  const closed = popup.waitForEvent('close', { timeout: 30_000 });
  await popup.getByRole('button', { name: 'Authorize' }).click();
  await closed;
  await expect(check.getByTestId('go-live-problem')).toHaveCount(1);
  // Skipped: YouTube is switched off for this broadcast.
  await check.getByRole('button', { name: 'Skip' }).click();
  await expect(check.getByTestId('go-live-problem')).toHaveCount(0);
  const listed = async () =>
    ((await (await context.request.get(`/api/v1/projects/${projectId}/destinations`)).json()) as { destinations: DestinationView[] }).destinations;
  await expect.poll(async () => (await listed()).find((d) => d.id === youtube.id)?.enabled).toBe(false);

  // Auto Live on (Twitch is linked now): its line appears, one line high.
  const autoLive = await context.request.put(`/api/v1/projects/${projectId}/auto-live`, { data: { enabled: true } });
  expect(autoLive.status(), await autoLive.text()).toBe(200);
  await check.getByRole('button', { name: 'Go Live' }).click();
  await expect(check).toHaveCount(0);
  // On air, Auto Live's state sits beside the timer, its settings one click away.
  await expect(destinations.getByRole('button', { name: /^Auto Live, encoder and console settings \(Auto Live on: / })).toBeVisible();
  await expect(destinations.getByRole('button', { name: 'End Broadcast' })).toBeVisible({ timeout: 30_000 });

  // Live: the failing destination's error in one line across the row, the whole text under Details.
  const failingRow = destinations.locator(`[data-destination-id="${failing.id}"]`);
  const error = failingRow.getByTestId('destination-error');
  await expect(error).toBeVisible({ timeout: 45_000 });
  const reason = (await error.locator('span').first().getAttribute('title')) ?? '';
  expect(reason.length).toBeGreaterThan(10);
  const errorBox = await error.evaluate((el) => {
    const text = el.firstElementChild!.getBoundingClientRect();
    return {
      width: el.getBoundingClientRect().width,
      textHeight: text.height,
      lineHeight: parseFloat(getComputedStyle(el.firstElementChild!).lineHeight) || 20,
    };
  });
  expect(errorBox.width).toBeGreaterThanOrEqual(250);
  expect(errorBox.textHeight).toBeLessThanOrEqual(errorBox.lineHeight * 1.5);
  // Long names are cut only where the whole name is one hover away.
  for (const row of await destinations.getByTestId('destination-row').all()) {
    const names = row.locator('[title]').first();
    const { cut, title, name } = await names.evaluate((el) => {
      const nameEl = el.firstElementChild as HTMLElement;
      return { cut: nameEl.scrollWidth > nameEl.clientWidth, title: el.getAttribute('title') ?? '', name: nameEl.textContent ?? '' };
    });
    expect(title).toContain(name);
    if (cut) expect(title.length).toBeGreaterThan(0);
  }
  await expect(destinations.getByRole('status', { name: 'Local preview server stream health' })).toContainText(/\d+(\.\d)? (kbps|Mbps)/, { timeout: 45_000 });

  // The chat: a dozen messages from Twitch's chat double.
  const chat = page.getByRole('region', { name: 'Platform chat' });
  await expect(chat.getByTestId(`chat-filter-${twitch.id}`)).toHaveAttribute('data-state', 'live', { timeout: 30_000 });
  for (let i = 1; i <= 14; i++)
    await control(TWITCH_CHAT(), 'say', { channel, login: `viewer${i}`, displayName: `Viewer${i}`, text: `message number ${i} from the chat` });
  await expect(chat.getByTestId('chat-message').filter({ hasText: 'message number 14 from' })).toBeVisible({ timeout: 20_000 });
  const list = chat.getByRole('list', { name: 'Chat messages' });
  await shot(page, 'live-1280');
  const small = await chatRoom(list);
  expect(small.height, 'chat list height at 1280×720').toBeGreaterThanOrEqual(240);
  expect(small.whole, 'whole messages at 1280×720').toBeGreaterThanOrEqual(6);
  await error.getByRole('button', { name: 'Details' }).click();
  await expect(error.getByRole('button', { name: 'Less' })).toHaveAttribute('aria-expanded', 'true');
  await shot(page, 'live-error-details-1280');
  await error.getByRole('button', { name: 'Less' }).click();

  await page.setViewportSize({ width: 1440, height: 900 });
  await expect.poll(async () => (await chatRoom(list)).whole, { message: 'whole messages at 1440×900' }).toBeGreaterThanOrEqual(10);
  await shot(page, 'live-1440');
  await page.setViewportSize({ width: 1280, height: 720 });

  // The creator's arrangement stays: a taller destinations list (keyboard on the edge), then reloaded.
  const edge = destinations.getByRole('separator', { name: 'Resize destinations and chat' });
  await edge.focus();
  await edge.press('ArrowUp');
  const kept = await edge.getAttribute('aria-valuenow');
  await destinations.getByRole('button', { name: 'Destinations' }).click();
  await expect(destinations.getByRole('list', { name: 'Your destinations' })).toBeHidden();
  await page.reload();
  await expect(destinations.getByRole('button', { name: 'End Broadcast' })).toBeVisible({ timeout: 20_000 });
  await expect(destinations.getByRole('button', { name: 'Destinations' })).toHaveAttribute('aria-expanded', 'false');
  await destinations.getByRole('button', { name: 'Destinations' }).click();
  await expect(destinations.getByRole('separator', { name: 'Resize destinations and chat' })).toHaveAttribute('aria-valuenow', kept!);

  // End Broadcast asks once, then sums up.
  await destinations.getByRole('button', { name: 'End Broadcast' }).click();
  const confirm = page.getByRole('dialog', { name: 'End the broadcast?' });
  await expect(confirm).toBeVisible();
  await shot(page, 'end-confirm-1280');
  await confirm.getByRole('button', { name: 'Keep streaming' }).click();
  await expect(destinations.getByRole('button', { name: 'End Broadcast' })).toBeVisible();
  await destinations.getByRole('button', { name: 'End Broadcast' }).click();
  await confirm.getByRole('button', { name: 'End Broadcast' }).click();
  const summary = page.getByRole('dialog', { name: 'Broadcast ended' });
  await expect(summary.getByTestId('summary-duration')).toHaveText(/^\d+:\d\d:\d\d$/);
  await expect(summary.getByTestId('summary-destination')).toHaveCount(3);
  await expect(summary.getByTestId('summary-destination').filter({ hasText: 'Backup server' })).toContainText('Failed');
  await expect(summary.getByTestId('summary-destination').filter({ hasText: 'Local preview server' })).toContainText(/Healthy · \d+ reconnects?/);
  await expect(summary.getByRole('link', { name: 'Open the recording' })).toHaveAttribute('href', `/projects/${projectId}/recordings`);
  await shot(page, 'summary-1280');
  await summary.getByRole('button', { name: 'Done' }).click();
  await expect(destinations.getByRole('button', { name: 'Go Live' })).toBeVisible();

  await page.close();
  await context.request.delete(`/api/v1/projects/${projectId}/session`);
});
