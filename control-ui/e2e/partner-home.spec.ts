import { createHash, randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { completeOnboarding, linkTwitchAccount, queryDb, SHOTS } from './support/partner.ts';
import { makeAdmin, signIn } from './support/studio.ts';

test.use({ viewport: { width: 1440, height: 900 } });

async function newestCode(page: Page, email: string): Promise<string> {
  let code: string | undefined;
  for (let i = 0; i < 50 && !code; i++) {
    const inbox = (await (await page.request.get(`/api/v1/dev/inbox?to=${encodeURIComponent(email)}`)).json()) as { messages: { text: string }[] };
    code = /\b(\d{6})\b/.exec(inbox.messages[0]?.text ?? '')?.[1];
    if (!code) await page.waitForTimeout(100);
  }
  if (!code) throw new Error('no sign-in code arrived');
  return code;
}

async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('onboarding: the partner area signs in with its own words and collects the account before it opens', async ({ page }) => {
  // Sign-in, the whole form and three settings sections: longer than the suite's default on two shared cores.
  test.setTimeout(90_000);
  const email = `partner-${Date.now()}@example.com`;
  await page.goto('/partner');
  await expect(page).toHaveURL(/\/login\?next=%2Fpartner$/);
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Email me a code' }).click();
  const code = await newestCode(page, email);
  await page.getByLabel('Code').fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Partner spec §8 'Email login'.
  await expect(page.getByRole('alert')).toHaveText('The code you entered is incorrect. Please try again.');
  await page.getByLabel('Code').fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/partner\/get-started$/);
  // Issue 52: the partner network says what it gives before it asks for personal data.
  await expect(page.getByRole('heading', { name: 'The OnAir partner network' })).toBeVisible();
  for (const give of ['A chatbot for your channel', 'Overlays', 'Tips', 'Sponsored campaigns'])
    await expect(page.getByRole('heading', { name: give })).toBeVisible();
  await expect(page.getByLabel('Birthdate')).toHaveCount(0);
  await page.getByRole('button', { name: 'Join the partner network' }).click();
  await expect(page.getByRole('heading', { name: 'Get Started' })).toBeVisible();

  // Nothing filled: the api's words under each field.
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('This field is required').first()).toBeVisible();
  await expect(page.getByText('Choose at least one device')).toBeVisible();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/partner-get-started-errors.png`, fullPage: true });

  const username = `Ada_${Date.now().toString(36)}`;
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await choose(page, 'Identity', 'She');
  await page.getByLabel('Birthdate').fill('1995-04-23');
  await choose(page, 'Country', 'Germany');
  await choose(page, 'Content language', 'German');
  await choose(page, 'Main platform', 'Twitch');
  await page.getByLabel('PlayStation').check();
  await page.getByLabel('PC').check();
  await choose(page, 'How did you hear about us?', 'Gaming Event');
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/partner-get-started.png`, fullPage: true });
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/partner$/);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByText('Welcome, Ada.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Channel' }).getByRole('heading', { name: username })).toBeVisible();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/partner-dashboard.png` });

  // Settings › Personal information holds what Get Started collected; a changed name starts the cooldown.
  await page.getByRole('link', { name: 'Settings' }).first().click();
  await expect(page.getByRole('heading', { name: 'Personal information' })).toBeVisible();
  await expect(page.getByLabel('Username')).toHaveValue(username);
  await expect(page.getByLabel('Country')).toHaveText('Germany');
  await page.getByLabel('Username').fill(`${username}_2`);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Personal information saved')).toBeVisible();
  await expect(page.getByText(/You can change your username again on \d{4}-\d{2}-\d{2}\./)).toBeVisible();
  await expect(page.getByLabel('Username')).toBeDisabled();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/partner-settings-personal.png`, fullPage: true });

  // Avatar upload: the types and size are said; a real PNG is kept and shown.
  await expect(page.getByText('PNG, JPEG or WebP, up to 0.5 MB.')).toBeVisible();
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
  await page.getByLabel('Avatar').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
  await expect(page.getByText('Avatar updated')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Your avatar' })).toBeVisible();

  await page.getByRole('link', { name: 'Payout information' }).click();
  await expect(page.getByRole('heading', { name: 'Tax interview' })).toBeVisible();
  await page.getByRole('link', { name: 'Integrations' }).click();
  await expect(page.getByRole('listitem', { name: 'E-mail' })).toContainText(`Connected as ${email}`);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/partner-settings-integrations.png` });
});

test('collaborators: invite → accept → act on the owner’s channel with only the granted group → edit → revoke', async ({ browser }) => {
  // Two people's browsers through a whole collaboration: more steps than the suite's default allows for.
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  const ownerEmail = `owner-${stamp}@example.com`;
  const friendEmail = `friend-${stamp}@example.com`;
  const ownerContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const friendContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const owner = await ownerContext.newPage();
  const friend = await friendContext.newPage();
  await signIn(ownerContext.request, ownerEmail);
  await completeOnboarding(ownerContext.request, `Owner_${stamp}`, 'Olive');
  await signIn(friendContext.request, friendEmail);
  await completeOnboarding(friendContext.request, `Friend_${stamp}`, 'Fred');

  // The owner invites; §5's words for a bad address and a bad Twitch username first.
  await owner.goto('/partner/settings/collaborators');
  await expect(owner.getByText('No collaborators yet')).toBeVisible();
  if (SHOTS) await owner.screenshot({ path: `${SHOTS}/partner-collaborators-empty.png` });
  await owner.getByRole('button', { name: 'Invite collaborator' }).click();
  const dialog = owner.getByRole('dialog', { name: 'Invite a collaborator' });
  await dialog.getByLabel('E-mail address').fill('not-an-address');
  await dialog.getByLabel('Overlay: View overlays').check();
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Enter a valid email address');
  await dialog.getByLabel('Invite by').click();
  await owner.getByRole('option', { name: 'Twitch username' }).click();
  await dialog.getByLabel('Twitch username').fill('a'.repeat(42));
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Keep the text under 42 characters and use only Latin letters');
  await dialog.getByLabel('Invite by').click();
  await owner.getByRole('option', { name: 'E-mail address' }).click();
  await dialog.getByLabel('E-mail address').fill(friendEmail);
  await dialog.getByLabel('Message (optional)').fill('Help with my overlays? <b>thanks</b>');
  if (SHOTS) await owner.screenshot({ path: `${SHOTS}/partner-invite-dialog.png` });
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog).toBeHidden();
  const sentRow = owner.getByRole('listitem', { name: friendEmail });
  await expect(sentRow).toContainText('Pending');
  await expect(sentRow).toContainText('Overlay: View overlays');
  if (SHOTS) await owner.screenshot({ path: `${SHOTS}/partner-collaborators-sent.png` });

  // The same address again is refused with words.
  await owner.getByRole('button', { name: 'Invite collaborator' }).click();
  await dialog.getByLabel('E-mail address').fill(friendEmail);
  await dialog.getByLabel('Analytics: Stream stats').check();
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(`${friendEmail} already collaborates on your channel or has an invitation waiting.`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // The friend accepts (Twitch connected) from the received tab; the message is shown as text.
  await linkTwitchAccount(friendEmail, `friend_${stamp}`);
  await friend.goto('/partner/settings/collaborators?tab=received');
  const received = friend.getByRole('listitem', { name: `Owner_${stamp}` });
  await expect(received.getByText('Help with my overlays? <b>thanks</b>')).toBeVisible();
  if (SHOTS) await friend.screenshot({ path: `${SHOTS}/partner-collaborators-received.png` });
  await received.getByRole('button', { name: 'Accept' }).click();
  await expect(friend.getByText('Invitation accepted')).toBeVisible();
  await expect(received).toContainText('Accepted');

  // The channel selector offers the owner's channel; only Overlay is granted, so Analytics is refused by the server.
  await friend.getByRole('link', { name: 'Channel', exact: true }).click();
  await friend.getByLabel('Channel', { exact: true }).click();
  await friend.getByRole('option', { name: `Owner_${stamp}` }).click();
  await expect(friend.getByRole('heading', { name: `Owner_${stamp}` })).toBeVisible();
  await expect(friend.getByRole('region', { name: 'Analytics' }).getByRole('alert')).toHaveText(
    'Your access to this channel does not include Analytics (Stream stats). Ask the channel owner to grant it.',
  );
  if (SHOTS) await friend.screenshot({ path: `${SHOTS}/partner-channel-without-analytics.png` });

  // The owner adds Analytics: the friend's next load shows the stream stats.
  await owner.reload();
  await owner.getByRole('listitem', { name: friendEmail }).getByRole('button', { name: 'Edit permissions' }).click();
  const edit = owner.getByRole('dialog', { name: 'Edit permissions' });
  await edit.getByLabel('Analytics: Stream stats').check();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(owner.getByRole('listitem', { name: friendEmail })).toContainText('Analytics: Stream stats');
  await friend.getByRole('link', { name: 'Dashboard' }).click();
  await friend.getByRole('link', { name: 'Channel', exact: true }).click();
  await expect(friend.getByText('No streams yet')).toBeVisible();
  if (SHOTS) await friend.screenshot({ path: `${SHOTS}/partner-channel-with-analytics.png` });

  // Revoked: the friend's very next request is refused.
  await owner.getByRole('listitem', { name: friendEmail }).getByRole('button', { name: 'Revoke' }).click();
  await expect(owner.getByText('Access revoked')).toBeVisible();
  await expect(owner.getByText('No collaborators yet')).toBeVisible();
  await friend.getByRole('link', { name: 'Dashboard' }).click();
  await friend.getByRole('link', { name: 'Channel', exact: true }).click();
  await expect(friend.getByText('You are not a collaborator of this channel. Ask its owner for an invitation.')).toBeVisible();
  if (SHOTS) await friend.screenshot({ path: `${SHOTS}/partner-channel-revoked.png` });

  await ownerContext.close();
  await friendContext.close();
});

async function signInThroughUi(page: Page, email: string, next: string): Promise<void> {
  await page.goto(`/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel('E-mail').fill(email);
  const before = ((await (await page.request.get(`/api/v1/dev/inbox?to=${encodeURIComponent(email)}`)).json()) as { messages: unknown[] }).messages.length;
  await page.getByRole('button', { name: 'Email me a code' }).click();
  await expect
    .poll(async () => ((await (await page.request.get(`/api/v1/dev/inbox?to=${encodeURIComponent(email)}`)).json()) as { messages: unknown[] }).messages.length)
    .toBe(before + 1);
  await page.getByLabel('Code').fill(await newestCode(page, email));
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function deleteThroughSettings(page: Page, username: string): Promise<void> {
  await page.goto('/partner/settings/login-security');
  await expect(page.getByText('Your data is erased for good 30 days later.', { exact: false })).toBeVisible();
  const confirm = page.getByLabel(/Type your username/);
  const remove = page.getByRole('button', { name: 'Delete my account' });
  await confirm.fill('not-my-name');
  await expect(remove).toBeDisabled();
  await confirm.fill(username);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/partner-delete-account.png`, fullPage: true });
  await remove.click();
  await expect(page).toHaveURL(/\/account-deleted$/);
}

test('delete → signed out with the date of erasure → sign in again → reactivate', async ({ page }) => {
  const stamp = Date.now().toString(36);
  const email = `leaver-${stamp}@example.com`;
  await signIn(page.request, email);
  await completeOnboarding(page.request, `Leaver_${stamp}`);
  await deleteThroughSettings(page, `Leaver_${stamp}`);
  const [row] = await queryDb<{ erase_after: Date }>('SELECT erase_after FROM users WHERE email = $1', [email]);
  const day = row!.erase_after.toLocaleDateString('en-US', { dateStyle: 'long' });
  await expect(page.getByRole('status')).toHaveText(`You are signed out everywhere. Your data will be erased on ${day}.`);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/partner-account-deleted.png` });
  expect((await page.request.get('/api/v1/partner/account')).status()).toBe(401);

  // Another sign-in before the erasure asks for confirmation first.
  await signInThroughUi(page, email, '/partner');
  await expect(page).toHaveURL(/\/reactivate\?next=%2Fpartner$/);
  await expect(page.getByText(`and will be erased on ${day}`)).toBeVisible();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/partner-reactivate.png` });
  await page.getByRole('button', { name: 'Reactivate account' }).click();
  await expect(page).toHaveURL(/\/partner$/);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  expect((await queryDb('SELECT 1 FROM users WHERE email = $1 AND deactivated_at IS NULL', [email])).length).toBe(1);
});

test('delete → erased by the scheduled job once the window has passed → the address starts afresh', async ({ page }) => {
  const stamp = Date.now().toString(36);
  const email = `erased-${stamp}@example.com`;
  await signIn(page.request, email);
  await completeOnboarding(page.request, `Erased_${stamp}`);
  await deleteThroughSettings(page, `Erased_${stamp}`);
  // The stack's clock cannot be moved from here: the window is moved past instead (erase_after a
  // minute ago), which is what 30 days passing looks like to the erasure job.
  await queryDb(`UPDATE users SET erase_after = now() - interval '1 minute' WHERE email = $1`, [email]);
  await expect.poll(async () => (await queryDb('SELECT 1 FROM users WHERE email = $1', [email])).length, { timeout: 15_000 }).toBe(0);

  // Signing in with the address now makes a new account: Get Started, not reactivation.
  await signInThroughUi(page, email, '/partner');
  await expect(page).toHaveURL(/\/partner\/get-started$/);
});

test('data export: requested, built in the background with progress, downloaded as a zip', async ({ page }) => {
  const stamp = Date.now().toString(36);
  await signIn(page.request, `exporter-${stamp}@example.com`);
  await completeOnboarding(page.request, `Exporter_${stamp}`);
  await page.goto('/partner/settings/data-exports');
  await expect(page.getByText('No exports yet')).toBeVisible();
  await expect(page.getByText('the download link works for 24 hours', { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'Export my data' }).click();
  const download = page.getByRole('link', { name: 'Download' });
  await expect(download).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'Export my data' })).toBeEnabled();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/partner-data-exports.png` });
  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  expect(file.suggestedFilename()).toMatch(/^onair-export-\d{4}-\d{2}-\d{2}\.zip$/);
  const stream = await file.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  // A zip archive starts with the local file header signature PK\x03\x04.
  expect(Buffer.concat(chunks).subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
});

test('applications: authorize with a code (PKCE) and with a short code, then revoke in Manage Applications', async ({ page, browser }) => {
  test.setTimeout(60_000);
  const stamp = Date.now().toString(36);
  // An administrator registers the application.
  const adminContext = await browser.newContext();
  const adminEmail = `apps-admin-${stamp}@example.com`;
  await signIn(adminContext.request, adminEmail);
  await makeAdmin(adminEmail);
  const redirect = 'https://deck.example.com/callback';
  const registered = await adminContext.request.post('/api/v1/admin/applications', {
    data: { name: 'Stream Deck helper', redirectUris: [redirect], scopes: ['profile:read', 'channel:read'] },
  });
  expect(registered.status()).toBe(201);
  const { clientId } = (await registered.json()) as { clientId: string };
  await adminContext.close();

  await signIn(page.request, `apps-${stamp}@example.com`);
  await completeOnboarding(page.request, `Apps_${stamp}`);

  // The authorization-code flow: consent, then back to the application with a code.
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const query = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirect,
    response_type: 'code',
    scope: 'profile:read',
    state: 's1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  await page.route(`${redirect}**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Back at the application</h1>' }));
  await page.goto(`/partner/authorize?${query.toString()}`);
  await expect(page.getByRole('heading', { name: 'Stream Deck helper wants to use your OnAir account' })).toBeVisible();
  await expect(page.getByText('See your username and profile')).toBeVisible();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/partner-authorize.png` });
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(page.getByRole('heading', { name: 'Back at the application' })).toBeVisible();
  const back = new URL(page.url());
  expect(back.searchParams.get('state')).toBe('s1');
  const exchanged = await page.request.post('/api/oauth/token', {
    form: { grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: redirect, client_id: clientId, code_verifier: verifier },
  });
  expect(exchanged.status()).toBe(200);
  const { access_token: codeToken } = (await exchanged.json()) as { access_token: string };

  // A wrong client id is told on the page, with its code (partner spec §8).
  await page.goto(`/partner/authorize?${new URLSearchParams({ ...Object.fromEntries(query), client_id: 'nobody' }).toString()}`);
  await expect(page.getByRole('alert')).toContainText('This application is not registered here (wrong client ID).');
  await expect(page.getByRole('alert')).toContainText('Error code: OAUTH_UNKNOWN_CLIENT');
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/partner-authorize-error.png` });

  // The device flow: the device shows a short code, the creator enters it.
  const started = await page.request.post('/api/oauth/device_authorization', { form: { client_id: clientId, scope: 'channel:read' } });
  const device = (await started.json()) as { device_code: string; user_code: string };
  await page.goto('/partner/device');
  await page.getByLabel('Enter the 6-character code shown on your device').fill(device.user_code.toLowerCase());
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('See your channel and its streams')).toBeVisible();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/partner-device.png` });
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(page.getByRole('status')).toHaveText('Your device is connected. You can go back to it now.');
  const polled = await page.request.post('/api/oauth/token', {
    form: { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: device.device_code, client_id: clientId },
  });
  expect(polled.status()).toBe(200);

  // Manage Applications lists it; revoking ends both tokens' access at once.
  await page.goto('/partner/settings/manage-applications');
  const row = page.getByRole('listitem', { name: 'Stream Deck helper' });
  await expect(row).toContainText('See your username and profile');
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/partner-manage-applications.png` });
  expect((await page.request.get('/api/oauth/userinfo', { headers: { authorization: `Bearer ${codeToken}` } })).status()).toBe(200);
  await row.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('No applications')).toBeVisible();
  expect((await page.request.get('/api/oauth/userinfo', { headers: { authorization: `Bearer ${codeToken}` } })).status()).toBe(401);
});
