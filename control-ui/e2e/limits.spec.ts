// Issue 52: money without leaving the show, and limits before they bite. A creator live from the
// studio opens Plan & Billing and pays in another tab while the program keeps showing the camera
// (read back from the project's Local stream); a Free creator sees the template and guest limits
// before any click fails, and a guest of a studio without guests is told on the first screen; the
// signed-out pages ask nothing that answers 401; /account and /account/plan are pages, whole at
// 1280×720 and 1440×900.
import { randomUUID } from 'node:crypto';
import { type Page, type Response } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { fakeMediaLaunchOptions, ORANGE } from './support/fake-media.ts';
import { localStreamUrl } from './support/local-stream.ts';
import { READER_HEIGHT, READER_WIDTH, readStream, type StreamReader } from './support/stream-reader.ts';
import { confirmEndBroadcast, openNewStudio, publicOrigin, signIn } from './support/studio.ts';

const SHOTS = process.env.ONAIR_E2E_SHOTS;
const VIEWPORTS = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
] as const;

test.use({ launchOptions: fakeMediaLaunchOptions(), permissions: ['camera', 'microphone'], viewport: { width: 1280, height: 720 } });

const readers: StreamReader[] = [];
test.afterEach(() => {
  for (const r of readers.splice(0)) r.stop();
});

/** Share of a reader frame near `rgb`. */
function coverage(frame: Buffer, rgb: readonly number[], tolerance = 45): number {
  let hits = 0;
  const n = READER_WIDTH * READER_HEIGHT;
  for (let i = 0; i < n; i++) {
    const o = i * 3;
    if (Math.abs(frame[o]! - rgb[0]!) <= tolerance && Math.abs(frame[o + 1]! - rgb[1]!) <= tolerance && Math.abs(frame[o + 2]! - rgb[2]!) <= tolerance) hits++;
  }
  return hits / n;
}

/** Every response answering 401 on the page, from now on. */
function unauthorizedOf(page: Page): string[] {
  const seen: string[] = [];
  page.on('response', (res: Response) => {
    if (res.status() === 401) seen.push(`${res.request().method()} ${new URL(res.url()).pathname}`);
  });
  return seen;
}

async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/limits-${name}.png` });
}

test('checkout opens in another tab while the show stays on air; the return lands on Plan & Billing and Projects marks the live project', async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  // Stripe's pages send the browser back to PUBLIC_URL (localhost): the whole flow runs there.
  const origin = publicOrigin();
  await signIn(context.request, `limits-live-${randomUUID()}@example.test`, origin);
  const projectId = await openNewStudio(page, 'Paid while live', origin, { template: 'Beam' });
  const added = await context.request.post(`${origin}/api/v1/projects/${projectId}/destinations`, { data: { type: 'Local' } });
  expect(added.status(), await added.text()).toBe(201);
  await page.reload();
  const destinations = page.getByRole('region', { name: 'Destinations' });
  await destinations.getByRole('button', { name: 'Go Live' }).click();
  await expect(destinations.getByRole('button', { name: 'End Broadcast' })).toBeVisible({ timeout: 45_000 });
  const local = readStream(await localStreamUrl(context.request, projectId, origin));
  readers.push(local);
  const describe = (f: Buffer) => `camera ${(coverage(f, ORANGE) * 100).toFixed(1)}%`;
  await local.frameWhere('the camera over most of the program', (f) => coverage(f, ORANGE) > 0.5, performance.now(), 45_000, describe);

  // Plan & Billing from the studio's account menu: a new tab; the studio's tab stays on the studio.
  await page.getByRole('button', { name: 'Account menu' }).click();
  const [billing] = await Promise.all([context.waitForEvent('page'), page.getByRole('menuitem', { name: 'Plan & Billing' }).click()]);
  await billing.setViewportSize({ width: 1280, height: 720 });
  await expect(billing).toHaveURL(/\/account\/plan$/);
  const premium = billing.getByRole('article', { name: 'Premium plan' });
  await premium.getByRole('button', { name: 'Upgrade' }).click();
  await expect(billing.getByRole('heading', { name: 'Subscribe to Premium' })).toBeVisible();
  await shot(billing, 'checkout-beside-studio');
  const duringCheckout = performance.now();
  await billing.getByLabel('Card number').fill('4242 4242 4242 4242');
  await billing.getByRole('button', { name: 'Subscribe' }).click();
  // The return lands where the creator left for Stripe: Plan & Billing, now Premium.
  await expect(billing.getByText('Subscription successful')).toBeVisible({ timeout: 30_000 });
  await expect(billing).toHaveURL(/\/account\/plan$/);
  await expect(billing.getByRole('region', { name: 'Account Settings' }).getByText('Next billing date')).toBeVisible();
  await shot(billing, 'plan-after-checkout');

  // The show never left the air: the studio is still the studio, and the program still shows the camera after the payment.
  expect(page.url()).toContain(`/studio/${projectId}`);
  await local.frameWhere('the camera in the program after checkout', (f) => coverage(f, ORANGE) > 0.5, performance.now(), 15_000, describe);
  expect(local.breaks.filter((at) => at > duringCheckout)).toEqual([]);
  await expect(destinations.getByRole('button', { name: 'End Broadcast' })).toBeVisible();
  await shot(page, 'studio-still-live');

  // Projects (in the billing tab) marks the project that is on air.
  await billing.goto(`${origin}/`);
  await expect(billing.getByRole('link', { name: /Paid while live/ }).getByText('Live', { exact: true })).toBeVisible();
  await shot(billing, 'projects-live');

  await destinations.getByRole('button', { name: 'End Broadcast' }).click();
  await confirmEndBroadcast(page);
  await expect(destinations.getByRole('button', { name: 'Go Live' })).toBeVisible({ timeout: 30_000 });
});

test('a Free creator sees the template and guest limits before any click; a guest is refused on the first screen and the host is told', async ({
  page,
  context,
  browser,
}) => {
  test.setTimeout(60_000);
  await signIn(context.request, `limits-free-${randomUUID()}@example.test`);
  const projectId = await openNewStudio(page, 'Free limits', '', { template: 'Beam' });

  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    // Templates: one scene in the project, three allowed: a three-scene template is marked, its Add off.
    await page.getByRole('button', { name: 'Templates', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add scenes from a template' });
    const marked = dialog.getByRole('listitem').filter({ hasText: 'Adds 3 scenes; your plan has room for 2 of its 3 scenes.' }).first();
    await expect(marked).toBeVisible();
    await expect(marked.getByRole('button', { name: 'Add', exact: true })).toBeDisabled();
    await expect(marked.getByRole('button', { name: 'Upgrade' })).toBeVisible();
    await expect(dialog.getByRole('listitem', { name: 'Podcast' }).getByRole('button', { name: 'Add', exact: true })).toBeEnabled();
    await marked.scrollIntoViewIfNeeded();
    await shot(page, `templates-free-${viewport.width}`);
    await page.keyboard.press('Escape');

    // Guests: the link is off, with the reason and an Upgrade.
    await page.getByRole('tab', { name: 'Guests' }).click();
    const invite = page.getByRole('region', { name: 'Invite Guests' });
    await expect(invite.getByText('Your plan does not include guests, so the guest link is off.')).toBeVisible();
    await expect(invite.getByRole('button', { name: 'Copy Guest Link' })).toBeDisabled();
    await expect(invite.getByRole('button', { name: 'Upgrade' })).toBeVisible();
    await invite.getByRole('button', { name: 'Copy Guest Link' }).scrollIntoViewIfNeeded();
    await shot(page, `guests-free-${viewport.width}`);
  }

  // The guest link of this studio (the api still makes one) refuses on the guest's first screen.
  const link = (await (await context.request.get(`/api/v1/projects/${projectId}/guest-link`)).json()) as { linkUrl: string };
  const guestContext = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const guest = await guestContext.newPage();
  const unauthorized = unauthorizedOf(guest);
  await guest.goto(link.linkUrl);
  await expect(guest.getByRole('heading', { name: 'This studio does not take guests' })).toBeVisible();
  await expect(guest.getByText("This studio's plan does not include guests. Ask the host to let you in later.")).toBeVisible();
  await expect(guest.getByLabel('Display name (optional)')).toHaveCount(0);
  await shot(guest, 'guest-refused-first-screen');
  await expect(page.getByText('Someone tried to join, but your plan does not include guests. Upgrade to Premium to invite up to 10.')).toBeVisible();
  await shot(page, 'host-told-guest-refused');
  await guest.waitForLoadState('networkidle');
  expect(unauthorized).toEqual([]);
  await guestContext.close();
});

test('the signed-out landing asks nothing that answers 401', async ({ browser }) => {
  const visitor = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await visitor.newPage();
  const unauthorized = unauthorizedOf(page);
  await page.goto('/');
  await expect(page.getByRole('link', { name: /sign in/i }).first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(unauthorized).toEqual([]);
  await shot(page, 'signed-out-landing');
  await visitor.close();
});

test('/account, /account/plan and the partner introduction are pages, whole at 1280×720 and 1440×900', async ({ page, context }) => {
  await signIn(context.request, `limits-pages-${randomUUID()}@example.test`);
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await page.goto('/account');
    const settings = page.getByRole('region', { name: 'Account Settings' });
    await expect(settings.getByRole('heading', { name: 'Account', exact: true })).toBeVisible();
    // The last controls of the page (Save / Delete) can be reached and are inside the window, nothing wider than it.
    const last = settings.getByRole('button', { name: 'Delete account' });
    await last.scrollIntoViewIfNeeded();
    await expect(last).toBeInViewport({ ratio: 1 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shot(page, `account-${viewport.width}`);

    await page.goto('/account/plan');
    await expect(settings.getByRole('heading', { name: 'Plan & Billing' })).toBeVisible();
    const upgrade = settings.getByRole('article', { name: 'Premium plan' }).getByRole('button', { name: 'Upgrade' });
    await upgrade.scrollIntoViewIfNeeded();
    await expect(upgrade).toBeInViewport({ ratio: 1 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shot(page, `plan-${viewport.width}`);

    // The partner network says what it gives before it asks for a birthdate.
    await page.goto('/partner');
    await expect(page.getByRole('heading', { name: 'The OnAir partner network' })).toBeVisible();
    await expect(page.getByLabel('Birthdate')).toHaveCount(0);
    const join = page.getByRole('button', { name: 'Join the partner network' });
    await join.scrollIntoViewIfNeeded();
    await expect(join).toBeInViewport({ ratio: 1 });
    await shot(page, `partner-intro-${viewport.width}`);
  }
});
