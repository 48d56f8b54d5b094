import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@onair/runtime';
import { AccountDeletionService } from '../src/accounts/deletion-service.ts';
import { startTestApi, type TestApi } from './helpers/api-server.ts';
import { Browser, errorOf, signInByEmailCode, uniqueEmail } from './helpers/browser.ts';

describe('/api/v1/users', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi({ AUTH_RATE_LIMIT_PER_IP: '1000' });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('changes the display name, refusing an empty or too long one without touching the user', async () => {
    const browser = await signInByEmailCode(api.url, uniqueEmail('name'));
    const renamed = await browser.request('PATCH', '/api/v1/users/current', { displayName: '  Ada Streams  ' });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ displayName: 'Ada Streams' });
    for (const displayName of ['   ', 'x'.repeat(101)]) {
      const refused = await browser.request('PATCH', '/api/v1/users/current', { displayName });
      expect((await errorOf(refused)).code).toBe('VALIDATION_FAILED');
    }
    expect(await (await browser.get('/api/v1/users/current')).json()).toMatchObject({ displayName: 'Ada Streams' });
    expect((await errorOf(await new Browser(api.url).request('PATCH', '/api/v1/users/current', { displayName: 'x' }))).code).toBe('UNAUTHENTICATED');
  });

  it('derives the role from the current subscription and the resolution from the role', async () => {
    const email = uniqueEmail('role');
    const browser = await signInByEmailCode(api.url, email);
    const user = await api.db.user.findUniqueOrThrow({ where: { email } });
    await api.db.subscription.create({ data: { userId: user.id, planId: 'Premium', itemPriceId: 'Premium-USD-Monthly', status: 'active' } });
    expect(await (await browser.get('/api/v1/users/current')).json()).toMatchObject({ role: 'Premium', resolution: { x: 1920, y: 1080 } });
    await api.db.subscription.updateMany({ where: { userId: user.id }, data: { status: 'cancelled' } });
    expect(await (await browser.get('/api/v1/users/current')).json()).toMatchObject({ role: 'Free', resolution: { x: 1280, y: 720 } });
  });

  it('serves mailing settings and saves the subscribed flag and the groups', async () => {
    const browser = await signInByEmailCode(api.url, uniqueEmail('mailing'));
    const settings = (await (await browser.get('/api/v1/users/settings')).json()) as { mailing: Record<string, unknown> };
    expect(settings.mailing).toEqual({
      enabled: true,
      subscribed: false,
      preferences: { 'product-updates': true, tips: true, community: true },
      availableGroups: [
        { id: 'product-updates', displayName: 'Product updates' },
        { id: 'tips', displayName: 'Tips and tutorials' },
        { id: 'community', displayName: 'Community events' },
      ],
    });
    expect(await (await browser.post('/api/v1/users/current/mailing-status', { subscribed: true })).json()).toMatchObject({ subscribed: true });
    const saved = await browser.post('/api/v1/users/current/mailing-preferences', { tips: false });
    expect(await saved.json()).toMatchObject({ subscribed: true, preferences: { 'product-updates': true, tips: false, community: true } });
    const unknown = await browser.post('/api/v1/users/current/mailing-preferences', { tips: true, spam: true });
    expect(await errorOf(unknown)).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', message: 'Unknown mailing group: spam.' });
    const after = (await (await browser.get('/api/v1/users/settings')).json()) as { mailing: { preferences: Record<string, boolean> } };
    expect(after.mailing.preferences.tips).toBe(false);
    expect((await errorOf(await browser.post('/api/v1/users/current/mailing-status', { subscribed: 'yes' }))).code).toBe('VALIDATION_FAILED');
  });

  it('deletes the account as the partner area does: signed out everywhere at once, erased with its projects after the retention window; then the address can sign up again', async () => {
    const email = uniqueEmail('delete');
    const browser = await signInByEmailCode(api.url, email);
    const other = await signInByEmailCode(api.url, email);
    const user = await api.db.user.findUniqueOrThrow({ where: { email } });
    await api.db.project.create({ data: { ownerId: user.id, name: 'Doomed' } });
    const before = Date.now();
    const deleted = await browser.request('DELETE', '/api/v1/users/current');
    expect(deleted.status).toBe(204);
    expect(browser.cookies.has('onair.session_token')).toBe(false);
    // Deactivated, not gone: erased 30 days (ACCOUNT_RETENTION_DAYS) later.
    const row = await api.db.user.findUniqueOrThrow({ where: { email }, select: { deactivatedAt: true, eraseAfter: true } });
    expect(row.deactivatedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(row.eraseAfter!.getTime() - row.deactivatedAt!.getTime()).toBe(30 * 24 * 60 * 60 * 1000);
    expect(await api.db.session.count({ where: { userId: user.id } })).toBe(0);
    expect(await api.db.project.count({ where: { ownerId: user.id } })).toBe(1);
    expect((await errorOf(await other.get('/api/v1/users/current'))).code).toBe('UNAUTHENTICATED');
    // A new sign-in before the erasure leads only to reactivation; deleting again is refused the same way.
    const back = await signInByEmailCode(api.url, email);
    expect((await errorOf(await back.get('/api/v1/users/current'))).code).toBe('ACCOUNT_PENDING_DELETION');
    expect((await errorOf(await back.request('DELETE', '/api/v1/users/current'))).code).toBe('ACCOUNT_PENDING_DELETION');

    // The window passes: the erasure takes the account and everything it owns.
    await api.db.user.update({ where: { id: user.id }, data: { eraseAfter: new Date(Date.now() - 1000) } });
    expect(await new AccountDeletionService({ db: api.db, logger: createLogger('users-test', 'silent'), retentionDays: 30 }).eraseDue()).toBeGreaterThanOrEqual(
      1,
    );
    expect(await api.db.user.count({ where: { email } })).toBe(0);
    expect(await api.db.project.count({ where: { ownerId: user.id } })).toBe(0);

    const again = await signInByEmailCode(api.url, email);
    const fresh = (await (await again.get('/api/v1/users/current')).json()) as { id: string };
    expect(fresh.id).not.toBe(user.id);
  });

  it('lists the sign-in methods: no OAuth provider without configuration, the dev inbox on a local address', async () => {
    expect(await (await fetch(`${api.url}/api/v1/auth/methods`)).json()).toEqual({
      emailCode: true,
      magicLink: true,
      sms: true,
      oauth: [],
      devInbox: true,
      signup: 'open',
    });
  });

  it('shows the development inbox only to callers on this machine', async () => {
    expect((await fetch(`${api.url}/api/v1/dev/inbox`)).status).toBe(200);
    // Through a proxy on this machine (trust proxy: loopback), for a client elsewhere on the network.
    const fromLan = await fetch(`${api.url}/api/v1/dev/inbox`, { headers: { 'x-forwarded-for': '192.168.1.23' } });
    expect((await errorOf(fromLan)).code).toBe('NOT_FOUND');
  });

  it('documents the account endpoints in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${api.url}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, { operationId: string }>> };
    expect(doc.paths['/api/v1/users/current']?.patch?.operationId).toBe('updateCurrentUser');
    expect(doc.paths['/api/v1/users/current/mailing-preferences']?.post?.operationId).toBe('updateMailingPreferences');
    const authDoc = (await (await fetch(`${api.url}/api/auth/open-api/generate-schema`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(authDoc.paths)).toEqual(expect.arrayContaining(['/sign-in/email-otp', '/sign-in/magic-link', '/two-factor/verify-totp']));
  });
});
