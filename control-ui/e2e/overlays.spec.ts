import { randomUUID } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { type BrowserContext, type Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { SecretBox } from '../../runtime/src/secret-box.ts';
import { CHROMIUM_ARGS } from './playwright.config.ts';
import { grabFrame, near, pixel, watchFrames } from './support/fake-media.ts';
import { completeOnboarding, queryDb, SHOTS } from './support/partner.ts';
import { openNewStudio, signIn, confirmEndBroadcast } from './support/studio.ts';
import { localStreamUrl } from './support/local-stream.ts';

// Overlays and the creator site (issue 23) as a creator meets them: an overlay built in the editor
// (an alert box and a goal bar), added to a studio scene as a browser source by its signed address,
// live to the local destination; a follow from the EventSub double shows its alert in the RTMP
// output and moves the goal bar (read back by pixel), and the same overlay address in a plain
// Chromium page, as OBS would open it, shows the same on a transparent background. A viewer named
// like markup is shown as text, in the alert and (from the Twitch chat double) in the chat box.
// The creator site renders for a signed-out visitor.

test.use({ launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS }, viewport: { width: 1440, height: 900 } });

const EVENTSUB = () => process.env.ONAIR_E2E_EVENTSUB!;
const BROADCASTER = '777023';
const HOSTILE = '<img src=x onerror=alert(1)>';
const FOLLOW_RGB = [0xe0, 0x45, 0x7b];
const BAR_RGB = [0x6d, 0x7c, 0xff];

/** The browser source's place in the scene (a new one's spec placement), and a canvas point of the overlay there. */
const SOURCE = { x: 200, y: 36, width: 852, height: 480 } as const;
const inOutput = (x: number, y: number) => ({ x: Math.round(SOURCE.x + (x * SOURCE.width) / 1280), y: Math.round(SOURCE.y + (y * SOURCE.height) / 720) });
/** The alert box at 320,280 (640×160): the colour block at its left edge. */
const ALERT_PROBE = { x: 332, y: 360 };
/** The goal bar moved to 340,40 (600×80): its bar below the title row, a tenth of the way in. */
const BAR_PROBE = { x: 400, y: 92 };

/**
 * The overlay page painted in the output: keyed out (black) where it draws nothing, and its goal bar's
 * title drawn, which needs the state its feed sends. A page not painted yet shows white.
 */
function overlayDrawn(frame: Buffer): boolean {
  const blank = inOutput(1240, 680);
  if (!near(pixel(frame, blank.x, blank.y), [0, 0, 0], 30)) return false;
  const from = inOutput(340, 40);
  const to = inOutput(540, 70);
  let bright = 0;
  let all = 0;
  for (let y = from.y; y < to.y; y++) {
    for (let x = from.x; x < to.x; x++) {
      all++;
      if (pixel(frame, x, y).every((v) => v > 180)) bright++;
    }
  }
  return bright > 20 && bright < all * 0.6;
}

async function control<T = unknown>(action: string, body: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch(`${EVENTSUB()}/_double/${action}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.ok, `${action}: ${res.status}`).toBe(true);
  return ((await res.json()) as { result: T }).result;
}

async function chatControl<T = unknown>(action: string, body: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch(`${process.env.ONAIR_E2E_CHAT_TWITCH!}/_double/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.ok, `${action}: ${res.status}`).toBe(true);
  return ((await res.json()) as { result: T }).result;
}

async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/overlays-${name}.png` });
}

const follow = (id: string, name: string) => ({
  type: 'channel.follow',
  broadcasterId: BROADCASTER,
  event: { user_id: id, user_login: `u${id}`, user_name: name, followed_at: new Date().toISOString() },
});

test.describe.configure({ mode: 'serial' });
let context: BrowserContext;
let page: Page;
let projectId: string | undefined;
let username: string;

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: process.env.ONAIR_E2E_URL });
  page = await context.newPage();
  await signIn(context.request, `overlays-${randomUUID()}@example.test`);
  username = `ov_${randomUUID().slice(0, 8)}`;
  await completeOnboarding(context.request, username);
});

// A flow that opened a studio has its pages closed when it ends (support/fixtures.ts), this shared
// one included: the next flow starts on a new page of the same signed-in context.
test.beforeEach(async () => {
  if (page.isClosed()) page = await context.newPage();
});

test.afterAll(async () => {
  if (projectId) {
    const destinations = page.getByRole('region', { name: 'Destinations' });
    if (
      await destinations
        .getByRole('button', { name: 'End Broadcast' })
        .isVisible()
        .catch(() => false)
    ) {
      await destinations.getByRole('button', { name: 'End Broadcast' }).click();
      await confirmEndBroadcast(page);
    }
    await context.request.delete(`/api/v1/projects/${projectId}/session`);
  }
  await context?.close();
});

test('an overlay with an alert box and a goal bar in a live studio scene and in a plain browser: a follow shows its alert and moves the goal', async ({
  browser,
}) => {
  test.setTimeout(420_000);
  // The editor: an empty list, a new overlay, two widgets placed apart.
  await page.goto('/partner/overlays');
  await expect(page.getByText('No overlays yet')).toBeVisible();
  await shot(page, '1-empty');
  await page.getByLabel('New overlay name').fill('Stream overlay');
  await page.getByRole('button', { name: 'Create overlay' }).click();
  await expect(page).toHaveURL(/\/partner\/overlays\/[0-9a-f-]{36}$/);
  await page.getByRole('button', { name: 'Alert box', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Alert box widget' })).toBeVisible();
  await page.getByRole('button', { name: 'Goal bar', exact: true }).click();
  const inspector = page.getByRole('group', { name: 'Goal bar settings' });
  await inspector.getByLabel('Y', { exact: true }).fill('40');
  await inspector.getByLabel('Target').fill('2');
  // A chat box in the lower left, clear of the other two.
  await page.getByRole('button', { name: 'Chat box', exact: true }).click();
  const chatSettings = page.getByRole('group', { name: 'Chat box settings' });
  await chatSettings.getByLabel('Width').fill('280');
  await chatSettings.getByLabel('X', { exact: true }).fill('20');
  await chatSettings.getByLabel('Y', { exact: true }).fill('400');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Saved' })).toBeVisible();
  await shot(page, '2-editor');
  const studioUrl = await page.getByRole('textbox', { name: 'Studio address' }).inputValue();
  const obsUrl = await page.getByRole('textbox', { name: 'Overlay address' }).inputValue();
  expect(studioUrl).toContain('onair-sig=');

  // The same address opened as OBS would: no session, a transparent page.
  const obs = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const obsPage = await obs.newPage();
  const dialogs: string[] = [];
  obsPage.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await obsPage.goto(obsUrl);
  await expect(obsPage.locator('body')).toHaveAttribute('data-feed', 'open');
  expect(await obsPage.evaluate(() => [getComputedStyle(document.documentElement).backgroundColor, getComputedStyle(document.body).backgroundColor])).toEqual([
    'rgba(0, 0, 0, 0)',
    'rgba(0, 0, 0, 0)',
  ]);
  await expect(obsPage.locator('[data-widget="goalBar"]')).toHaveAttribute('data-progress', '0');

  // A studio live to the local destination, with a Twitch channel linked as OAuth leaves it, and the overlay as a browser source.
  projectId = await openNewStudio(page, 'Overlay show');
  const destinations = page.getByRole('region', { name: 'Destinations' });
  await destinations.getByRole('button', { name: 'Add Destination' }).click();
  await page.getByTestId('destination-tile-Local').click();
  await expect(destinations.getByTestId('destination-row')).toHaveCount(1);
  const twitchId = randomUUID();
  const { accessToken, refreshToken } = await control<{ accessToken: string; refreshToken: string }>('issue-token');
  const box = new SecretBox(process.env.ONAIR_E2E_SECRETS_KEY!);
  await queryDb(
    `INSERT INTO destinations (id, project_id, type, provider_id, name, username, platform_account_id, access_token_enc, refresh_token_enc, token_expires_at, settings, updated_at)
     VALUES ($1, $2, 'Twitch', 'twitchtv', 'Ada on Twitch', 'ada', $3, $4, $5, now() + interval '1 hour', '{}', now())`,
    [twitchId, projectId, BROADCASTER, box.seal(accessToken, `${twitchId}:accessToken`), box.seal(refreshToken, `${twitchId}:refreshToken`)],
  );
  // A second Twitch channel, for the platform chat.
  const chatChannel = `ov${randomUUID().slice(0, 6)}`;
  const chatId = randomUUID();
  const chatToken = await chatControl<{ accessToken: string; refreshToken: string }>('issue-token');
  await queryDb(
    `INSERT INTO destinations (id, project_id, type, provider_id, name, username, platform_account_id, access_token_enc, refresh_token_enc, token_expires_at, settings, updated_at)
     VALUES ($1, $2, 'Twitch', 'twitchtv', $3, $3, '1', $4, $5, now() + interval '1 hour', '{}', now())`,
    [chatId, projectId, chatChannel, box.seal(chatToken.accessToken, `${chatId}:accessToken`), box.seal(chatToken.refreshToken, `${chatId}:refreshToken`)],
  );
  await page.reload();
  await expect(destinations.getByTestId('destination-row')).toHaveCount(3);
  await page.getByRole('button', { name: 'Add source' }).click();
  await page.getByRole('menuitem', { name: 'Browser Source' }).click();
  await page.getByRole('button', { name: /^Browser Source settings$/ }).click();
  const settings = page.getByRole('dialog', { name: 'Browser Source settings' });
  await settings.getByLabel('Address').fill(studioUrl);
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(settings).toBeHidden();
  await destinations.getByRole('button', { name: 'Go Live' }).click();
  await expect(destinations.getByRole('button', { name: 'End Broadcast' })).toBeVisible({ timeout: 30_000 });
  // The alert channel's seven subscriptions (in test mode one Twitch login serves chat and EventSub,
  // so the chat channel's connector subscribes for its own channel too).
  const ofAlertChannel = (subs: { condition: Record<string, string> }[]) =>
    subs.filter((x) => (x.condition.broadcaster_user_id ?? x.condition.to_broadcaster_user_id) === BROADCASTER);
  await expect
    .poll(async () => ofAlertChannel(await control<{ condition: Record<string, string> }[]>('subscriptions')).length, { timeout: 30_000, intervals: [250] })
    .toBe(7);
  const localUrl = await localStreamUrl(page.request, projectId);
  // Before any event: the overlay drawn in the output (its page up in the render worker and its feed
  // open: an event before that would be missed, as by any page opened later), no goal fill, no alert.
  const alertAt = inOutput(ALERT_PROBE.x, ALERT_PROBE.y);
  const barAt = inOutput(BAR_PROBE.x, BAR_PROBE.y);
  await expect
    .poll(
      async () => {
        const frame = await grabFrame(localUrl);
        return (
          frame !== undefined &&
          overlayDrawn(frame) &&
          !near(pixel(frame, barAt.x, barAt.y), BAR_RGB, 45) &&
          !near(pixel(frame, alertAt.x, alertAt.y), FOLLOW_RGB, 45)
        );
      },
      { timeout: 90_000, intervals: [1000] },
    )
    .toBe(true);
  await shot(page, '3-studio-live');

  // A follow by a viewer named like markup: the alert plays in the output and in the plain page, as text; the goal moves.
  // The output is read continuously from before the event: the alert shows for five seconds only.
  const alertInOutput = watchFrames(
    localUrl,
    (frame) => near(pixel(frame, alertAt.x, alertAt.y), FOLLOW_RGB, 45) && near(pixel(frame, barAt.x, barAt.y), BAR_RGB, 45),
    60_000,
  );
  // Sent once the reader has its first frame: started at the same moment, a reader that needed a
  // few seconds for a keyframe and its probe on a loaded machine could miss most of a 5 s alert.
  await alertInOutput.reading;
  await control('emit', follow('2301', HOSTILE));
  const card = obsPage.getByTestId('alert-card');
  await expect(card).toHaveText(`${HOSTILE} just followed!`, { timeout: 15_000 });
  await expect(obsPage.locator('img')).toHaveCount(0);
  await expect(obsPage.locator('[data-widget="goalBar"]')).toHaveAttribute('data-progress', '1');
  await expect(obsPage.locator('[data-widget="goalBar"]')).toContainText('1 / 2');
  if (SHOTS) await obsPage.screenshot({ path: `${SHOTS}/overlays-4-obs-alert.png`, omitBackground: true });
  expect(await alertInOutput, 'the alert and the moved goal bar in one frame of the output').toBeDefined();
  // The alert clears after its five seconds; the goal stays.
  await expect(card).toBeHidden({ timeout: 15_000 });
  await expect
    .poll(
      async () => {
        const frame = await grabFrame(localUrl);
        return frame !== undefined && !near(pixel(frame, alertAt.x, alertAt.y), FOLLOW_RGB, 45) && near(pixel(frame, barAt.x, barAt.y), BAR_RGB, 45);
      },
      { timeout: 60_000, intervals: [500] },
    )
    .toBe(true);
  // A chat user named like markup: in the chat box as text.
  await expect(page.getByRole('region', { name: 'Platform chat' }).getByTestId(`chat-filter-${chatId}`)).toHaveAttribute('data-state', 'live', {
    timeout: 30_000,
  });
  await chatControl('say', { channel: chatChannel, login: 'markup_fan', displayName: HOSTILE, text: 'hi <b>there</b>' });
  const chatBox = obsPage.locator('[data-widget="chatBox"]');
  // An IRC tag value cannot hold a space (Twitch display names have none): the name arrives without them.
  const chatName = HOSTILE.replaceAll(' ', '');
  await expect(chatBox.locator('.name')).toHaveText([chatName], { timeout: 15_000 });
  await expect(chatBox.locator('li')).toHaveText([`${chatName}hi <b>there</b>`]);
  await expect(obsPage.locator('img, b')).toHaveCount(0);
  if (SHOTS) await obsPage.screenshot({ path: `${SHOTS}/overlays-4b-obs-chat.png`, omitBackground: true });
  expect(dialogs).toEqual([]);
  await obs.close();

  await destinations.getByRole('button', { name: 'End Broadcast' }).click();
  await confirmEndBroadcast(page);
  await expect(destinations.getByRole('button', { name: 'Go Live' })).toBeVisible({ timeout: 30_000 });
});

/** A solid-colour RGB PNG, `width`×`height`. */
function solidPng(width: number, height: number, [r, g, b]: number[]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r!, g!, b!]).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test('the creator site: blocks arranged in the editor, the public page for a signed-out visitor', async ({ browser }) => {
  test.setTimeout(120_000);
  await page.goto('/partner/site');
  await expect(page.getByText('No blocks yet')).toBeVisible();
  await shot(page, '5-site-empty');
  await page.getByRole('button', { name: 'Add about' }).click();
  const about = page.getByRole('region', { name: 'About block' });
  await about.getByLabel('Text').fill('Speedruns of old games. <script>alert(1)</script>');
  await page.getByRole('button', { name: 'Add social links' }).click();
  const links = page.getByRole('region', { name: 'Social links block' });
  await links.getByRole('button', { name: 'Add a link' }).click();
  await links.getByLabel('Address').fill('javascript:alert(1)');
  await page.getByRole('switch').click();
  await page.getByRole('button', { name: 'Save site' }).click();
  await expect(links.getByText('Enter an https address')).toBeVisible();
  await links.getByLabel('Address').fill('https://youtube.com/@ada');
  await links.getByRole('combobox', { name: 'Platform' }).click();
  await page.getByRole('option', { name: 'YouTube' }).click();
  await page.getByRole('button', { name: 'Save site' }).click();
  await expect(page.getByRole('button', { name: 'Saved' })).toBeVisible();

  // A promo codes block with no running campaign, and a tip button while tips are off: the editor
  // says why visitors see no codes and no button.
  await page.getByRole('button', { name: 'Add campaign promo codes' }).click();
  await expect(page.getByRole('region', { name: 'Campaign promo codes block' }).getByRole('note')).toContainText('No promo codes yet.');
  await page.getByRole('button', { name: 'Add tip button' }).click();
  await expect(page.getByRole('region', { name: 'Tip button block' }).getByRole('note')).toContainText('Visitors do not see this button right now');
  await page.getByRole('button', { name: 'Save site' }).click();
  await expect(page.getByRole('button', { name: 'Saved' })).toBeVisible();
  await page.getByRole('region', { name: 'Tip button block' }).scrollIntoViewIfNeeded();
  await shot(page, '5b-site-empty-codes-tips-off');

  // A banner picture through the uploads store: an SVG is refused in words, a PNG is shown.
  await page.getByRole('button', { name: 'Add picture' }).click();
  const picture = page.getByRole('region', { name: 'Picture block' });
  await expect(picture.getByText(/PNG, JPEG, WebP or GIF, up to \d+(\.\d)? MB\./)).toBeVisible();
  await picture.getByLabel('Picture file').setInputFiles({
    name: 'logo.svg',
    mimeType: 'image/svg+xml',
    buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
  });
  await expect(picture.getByRole('alert')).toContainText('not supported');
  await picture.getByLabel('Picture file').setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: solidPng(1200, 300, [0x6d, 0x7c, 0xff]) });
  await expect(picture.getByText(/banner\.png · 1200×300/)).toBeVisible();
  await picture.getByLabel('Description for visitors who cannot see it').fill('My stream setup');
  await page.getByRole('button', { name: 'Save site' }).click();
  await expect(page.getByRole('button', { name: 'Saved' })).toBeVisible();
  const preview = picture.getByRole('img', { name: 'My stream setup' });
  await expect(preview).toBeVisible();
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1200);
  await shot(page, '6-site-editor');

  const visitor = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const site = await visitor.newPage();
  const response = await site.goto(`${process.env.ONAIR_E2E_URL}/c/${username}`);
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
  await expect(site.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(site.getByText('Speedruns of old games. <script>alert(1)</script>')).toBeVisible();
  await expect(site.getByRole('link', { name: 'YouTube' })).toHaveAttribute('href', 'https://youtube.com/@ada');
  await expect(site.locator('[data-block="promoCodes"]')).toContainText('No promo codes right now.');
  await expect(site.locator('[data-block="tipButton"]')).toHaveCount(0);
  // The picture loads under the page's CSP (img-src 'self'), as a PNG that is never sniffed.
  const banner = site.getByRole('img', { name: 'My stream setup' });
  await expect(banner).toBeVisible();
  expect(await banner.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1200);
  const bannerResponse = await visitor.request.get(`${process.env.ONAIR_E2E_URL}${await banner.getAttribute('src')}`);
  expect(bannerResponse.headers()['content-type']).toBe('image/png');
  expect(bannerResponse.headers()['x-content-type-options']).toBe('nosniff');
  if (SHOTS) await site.screenshot({ path: `${SHOTS}/overlays-7-site-public.png` });
  await visitor.close();
  expect(
    (
      await queryDb<{ published: boolean }>(
        'SELECT published FROM creator_sites cs JOIN partner_profiles p ON p.user_id = cs.channel_id WHERE p.username = $1',
        [username],
      )
    )[0]?.published,
  ).toBe(true);
});

test('an image widget shows a picture uploaded through the uploads store, in the editor and on the plain overlay page', async ({ browser }) => {
  test.setTimeout(120_000);
  await page.goto('/partner/overlays');
  await page.getByLabel('New overlay name').fill('Logo overlay');
  await page.getByRole('button', { name: 'Create overlay' }).click();
  await expect(page).toHaveURL(/\/partner\/overlays\/[0-9a-f-]{36}$/);
  await page.getByRole('button', { name: 'Image', exact: true }).click();
  const settings = page.getByRole('group', { name: 'Image settings' });
  await expect(settings.getByText(/PNG, JPEG, WebP or GIF, up to \d+(\.\d)? MB\./)).toBeVisible();
  // An SVG (it could carry script) is refused in words; a PNG takes the place of the address.
  await settings.getByLabel('Image file').setInputFiles({
    name: 'logo.svg',
    mimeType: 'image/svg+xml',
    buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
  });
  await expect(settings.getByRole('alert')).toContainText('not supported');
  await settings.getByLabel('Image file').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: solidPng(320, 180, [0xe0, 0x45, 0x7b]) });
  await expect(settings.getByText('logo.png · 320×180 · shown on the overlay once saved')).toBeVisible();
  await expect(settings.getByLabel('Or an image address (https)')).toHaveValue('');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Saved' })).toBeVisible();
  await expect(settings.getByText('logo.png · 320×180', { exact: true })).toBeVisible();
  // The editor's canvas loads it from the saved overlay's page.
  const preview = page.getByRole('button', { name: 'Image widget' }).locator('img');
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(320);
  await shot(page, '8-image-editor');

  // The overlay address as OBS opens it: the picture under the page's own path, a PNG never sniffed.
  const obsUrl = await page.getByRole('textbox', { name: 'Overlay address' }).inputValue();
  const obs = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const obsPage = await obs.newPage();
  await obsPage.goto(obsUrl);
  const picture = obsPage.locator('[data-widget="image"] img');
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 15_000 }).toBe(320);
  const response = await obs.request.get(await picture.evaluate((img: HTMLImageElement) => img.src));
  expect(response.headers()['content-type']).toBe('image/png');
  expect(response.headers()['x-content-type-options']).toBe('nosniff');
  if (SHOTS) await obsPage.screenshot({ path: `${SHOTS}/overlays-9-obs-image.png`, omitBackground: true });
  await obs.close();
});

test("the studio's source menu lists the creator's overlays and adds one by its signed address", async () => {
  test.setTimeout(120_000);
  const studioId = await openNewStudio(page, 'Overlay picker show');
  try {
    await page.getByRole('button', { name: 'Add source' }).click();
    await page.getByRole('menuitem', { name: 'OnAir overlay' }).click();
    const dialog = page.getByRole('dialog', { name: 'Overlays' });
    const list = dialog.getByRole('list', { name: 'Your overlays' });
    await expect(list.getByRole('listitem').filter({ hasText: 'Logo overlay' })).toContainText('1 widget');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/overlays-10-studio-picker.png` });
    await dialog.getByRole('button', { name: 'Add Logo overlay to the scene' }).click();
    await expect(dialog).toBeHidden();
    // A web-page source with the overlay's signed studio address, over the whole canvas.
    const overlays = (await (await context.request.get('/api/v1/partner/channels')).json()) as { channels: { id: string; owner: boolean }[] };
    const channelId = overlays.channels.find((c) => c.owner)!.id;
    const { overlays: summaries } = (await (await context.request.get(`/api/v1/partner/channels/${channelId}/overlays`)).json()) as {
      overlays: { id: string; name: string }[];
    };
    const logo = (await (
      await context.request.get(`/api/v1/partner/channels/${channelId}/overlays/${summaries.find((o) => o.name === 'Logo overlay')!.id}`)
    ).json()) as { studioUrl: string };
    await expect
      .poll(async () => {
        const doc = (await (await context.request.get(`/api/v1/projects/${studioId}/scene`)).json()) as {
          activeSceneId: string;
          sources: { id: string; kind: string; settings: { config?: { url: string } } }[];
          scenes: { id: string; layers: { sourceId: string; x: number; y: number; width: number; height: number }[] }[];
        };
        const source = doc.sources.find((s) => s.kind === 'webpage' && s.settings.config?.url === logo.studioUrl);
        const layer = doc.scenes.find((s) => s.id === doc.activeSceneId)?.layers.find((l) => l.sourceId === source?.id);
        return layer ? [layer.x, layer.y, layer.width, layer.height] : null;
      })
      .toEqual([0, 0, 1280, 720]);
    expect(logo.studioUrl).toContain('onair-sig=');
    await expect(page.locator('[data-testid="canvas-layer"][data-kind="webpage"]')).toHaveCount(1);
    // The render worker loads the overlay by that address, its uploaded picture included (under the
    // signed path): the program preview turns the picture's pink in the middle of the canvas.
    const previewCentre = () =>
      page.getByTestId('program-preview').evaluate((video: HTMLVideoElement) => {
        if (video.videoWidth === 0) return null;
        const canvas = document.createElement('canvas');
        canvas.width = video.videoWidth;
        canvas.height = video.videoHeight;
        const context2d = canvas.getContext('2d')!;
        context2d.drawImage(video, 0, 0);
        const d = context2d.getImageData(Math.round(video.videoWidth / 2), Math.round(video.videoHeight / 2), 1, 1).data;
        return [d[0]!, d[1]!, d[2]!];
      });
    await expect
      .poll(
        async () => {
          const rgb = await previewCentre();
          return rgb !== null && near(rgb, [0xe0, 0x45, 0x7b], 45);
        },
        { timeout: 60_000, intervals: [1000], message: "the program preview's centre shows the uploaded picture's pink" },
      )
      .toBe(true);
    await shot(page, '11-studio-overlay-added');
  } finally {
    await context.request.delete(`/api/v1/projects/${studioId}/session`);
  }
});
