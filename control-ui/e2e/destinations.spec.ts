import { randomUUID } from 'node:crypto';
import { type Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { CHROMIUM_ARGS } from './playwright.config.ts';
import { grantPremium, openNewStudio as openStudio, signIn } from './support/studio.ts';

test.use({ launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS } });

const opened: string[] = [];

async function openNewStudio(page: Page): Promise<void> {
  opened.push(await openStudio(page, 'Destinations'));
}

// An open studio holds a session on the stack's one media worker: close it, or later flows wait for room.
test.afterEach(async ({ page, context }) => {
  await page.close();
  for (const projectId of opened.splice(0)) await context.request.delete(`/api/v1/projects/${projectId}/session`);
});

const panel = (page: Page) => page.getByRole('region', { name: 'Destinations' });
const counter = (page: Page) => panel(page).getByLabel('Enabled destinations');
const rows = (page: Page) => panel(page).getByTestId('destination-row');

test('adds a custom RTMP destination with the rule messages, toggles it and removes it after confirming', async ({ page, context }) => {
  test.setTimeout(60_000);
  const email = `dest-${randomUUID()}@example.test`;
  await signIn(context.request, email);
  await grantPremium(context.request);
  await openNewStudio(page);
  await expect(counter(page)).toHaveText('0/0');

  await panel(page).getByRole('button', { name: 'Add Destination' }).click();
  await page.getByRole('dialog', { name: 'Add Destination' }).getByTestId('destination-tile-CustomRTMP').click();
  const form = page.getByRole('dialog', { name: 'Add Custom RTMP' });
  await form.getByRole('button', { name: 'Add Destination' }).click();
  await expect(form.getByText('Enter a name of 1 to 100 characters.')).toBeVisible();
  await expect(form.getByText('The server URL must start with rtmp:// or rtmps://.')).toBeVisible();

  await form.getByLabel('Name').fill('Backup server');
  // The e2e stack allows loopback and private RTMP (its go-live flow needs it), never the cloud metadata service.
  await form.getByLabel('Server URL').fill('rtmp://169.254.169.254/live');
  await form.getByRole('button', { name: 'Add Destination' }).click();
  await expect(form.getByText(/cloud metadata service/)).toBeVisible();

  await form.getByLabel('Server URL').fill('RTMP://93.184.216.34/live');
  await form.getByLabel('Stream key').fill('sk-e2e-secret');
  await form.getByRole('button', { name: 'Add Destination' }).click();
  await expect(form).toBeHidden();
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText('Backup server');
  await expect(counter(page)).toHaveText('1/1');

  await rows(page).first().getByRole('switch').click();
  await expect(counter(page)).toHaveText('0/1');
  await page.reload();
  await expect(counter(page)).toHaveText('0/1');

  // The saved key is never shown again.
  await rows(page).first().getByRole('button', { name: 'Edit destination' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Custom RTMP' });
  await expect(edit.getByLabel('Stream key')).toHaveValue('');
  await expect(page.content()).resolves.not.toContain('sk-e2e-secret');
  await edit.getByRole('button', { name: 'Cancel' }).click();

  await rows(page).first().getByRole('button', { name: 'Remove destination' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove destination?' });
  await expect(confirm).toHaveAccessibleDescription('You will no longer be able to stream to this channel.');
  await expect(confirm.getByText('You will no longer be able to stream to this channel.').last()).toBeVisible();
  await confirm.getByRole('button', { name: 'Keep it' }).click();
  await expect(confirm).toBeHidden();
  await expect(rows(page)).toHaveCount(1);
  await rows(page).first().getByRole('button', { name: 'Remove destination' }).click();
  await page.getByRole('dialog', { name: 'Remove destination?' }).getByRole('button', { name: 'Remove Destination' }).click();
  await expect(rows(page)).toHaveCount(0);
  await expect(counter(page)).toHaveText('0/0');
});

test('Free: paid tiles show their upgrade tooltip, and Add Destination is disabled at the plan limit', async ({ page, context }) => {
  test.setTimeout(60_000);
  await signIn(context.request, `free-${randomUUID()}@example.test`);
  await openNewStudio(page);

  await panel(page).getByRole('button', { name: 'Add Destination' }).click();
  const picker = page.getByRole('dialog', { name: 'Add Destination' });
  const customTile = picker.getByTestId('destination-tile-CustomRTMP');
  await customTile.hover();
  await expect(page.getByRole('tooltip')).toHaveText('Add Custom RTMP destinations...');
  await expect(customTile.getByRole('button', { name: 'Upgrade' })).toBeVisible();

  // The embedded stack's local server needs no platform account: its tile comes first and adds it in one click.
  await expect(picker.getByTestId(/^destination-tile-/).first()).toHaveAttribute('data-testid', 'destination-tile-Local');
  await expect(picker.getByTestId('destination-tile-Local')).toContainText('One click, no account');
  for (let i = 0; i < 2; i++) {
    if (i > 0) await panel(page).getByRole('button', { name: 'Add Destination' }).click();
    await page.getByRole('dialog', { name: 'Add Destination' }).getByTestId('destination-tile-Local').click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(rows(page)).toHaveCount(i + 1);
  }
  await expect(counter(page)).toHaveText('2/2');
  await expect(panel(page).getByRole('button', { name: 'Add Destination' })).toBeDisabled();
});
