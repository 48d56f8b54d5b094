import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@onair/runtime';
import type { AccountDeletionStatus } from '@onair/protocol';
import { AccountDeletionService } from '../src/accounts/deletion-service.ts';
import { AccountErasureJob } from '../src/accounts/erasure-job.ts';
import { errorOf, signInByEmailCode, uniqueEmail } from './helpers/browser.ts';
import { collaboratorWith, personalInfo } from './helpers/partner.ts';
import { call, createTestUser, startStudioApi, type StudioApi } from './helpers/studio-api.ts';

const DAY = 24 * 60 * 60 * 1000;
let api: StudioApi;

beforeAll(async () => {
  // SECRETS_KEY: stopping a broadcast hands the session its (empty) sealed outputs.
  api = await startStudioApi({ env: { SECRETS_KEY: Buffer.alloc(32, 5).toString('base64') } });
});
afterAll(async () => {
  await api?.close();
});

const DELETION = '/api/v1/partner/account/deletion';

describe('account deletion (partner spec §4, §5)', () => {
  it('asks for the own username, deactivates at once (signed out everywhere, channel closed), and shows the date of erasure', async () => {
    const owner = await createTestUser(api);
    await call(api, owner, 'POST', '/api/v1/partner/account/onboarding', personalInfo(`Leaving_${owner.id.slice(0, 6)}`));
    const { user: helper } = await collaboratorWith(api, owner, ['analytics']);
    // A broadcast going out to the platforms for this account.
    const projectId = ((await call(api, owner, 'POST', '/api/v1/projects', { name: 'Goodbye stream' })).body as { id: string }).id;
    const live = await api.db.broadcast.create({ data: { projectId, state: 'live', startedAt: new Date() } });
    expect((await call(api, helper, 'GET', `/api/v1/partner/channels/${owner.id}/streams`)).status).toBe(200);

    expect(await call(api, owner, 'GET', DELETION)).toMatchObject({
      status: 200,
      body: { pendingDeletion: false, retentionDays: 30, confirmWith: 'username' },
    });
    expect(await call(api, owner, 'POST', DELETION, { confirmation: 'someone_else' })).toMatchObject({
      status: 400,
      body: { error: { code: 'DELETION_CONFIRMATION_MISMATCH', message: 'Type your username exactly as it is shown to confirm.' } },
    });
    const before = Date.now();
    const deleted = await call(api, owner, 'POST', DELETION, { confirmation: `leaving_${owner.id.slice(0, 6)}` });
    expect(deleted.status).toBe(200);
    const status = deleted.body as AccountDeletionStatus;
    expect(status.pendingDeletion).toBe(true);
    const window = new Date(status.eraseAfter!).getTime() - new Date(status.deactivatedAt!).getTime();
    expect(window).toBe(30 * DAY);
    expect(new Date(status.deactivatedAt!).getTime()).toBeGreaterThanOrEqual(before - 1000);

    // Its platform connections stopped: the live broadcast ended.
    expect((await api.db.broadcast.findUniqueOrThrow({ where: { id: live.id } })).state).toBe('ended');
    // Signed out everywhere: the old session is gone.
    expect(await api.db.session.count({ where: { userId: owner.id } })).toBe(0);
    expect((await call(api, owner, 'GET', '/api/v1/partner/account')).status).toBe(401);
    expect((await call(api, owner, 'GET', '/api/v1/users/current')).status).toBe(401);
    // The channel is closed to its collaborators.
    expect((await call(api, helper, 'GET', `/api/v1/partner/channels/${owner.id}/streams`)).status).toBe(403);
    const channels = (await call(api, helper, 'GET', '/api/v1/partner/channels')).body as { channels: { id: string }[] };
    expect(channels.channels.map((c) => c.id)).not.toContain(owner.id);
  });

  it('a new sign-in before the erasure leads only to reactivation, which must be confirmed', async () => {
    const email = uniqueEmail('comeback');
    const first = await signInByEmailCode(api.url, email);
    expect((await first.post(DELETION, { confirmation: email.toUpperCase() })).status).toBe(200);
    expect((await first.get('/api/v1/users/current')).status).toBe(401);

    const again = await signInByEmailCode(api.url, email);
    // Another connection to an account pending deletion requires confirmation.
    expect(await errorOf(await again.get('/api/v1/users/current'))).toMatchObject({ status: 403, code: 'ACCOUNT_PENDING_DELETION' });
    expect((await again.get('/api/v1/partner/account')).status).toBe(401);
    expect(((await (await again.get(DELETION)).json()) as AccountDeletionStatus).pendingDeletion).toBe(true);

    const reactivated = await again.post('/api/v1/partner/account/reactivation');
    expect(reactivated.status).toBe(200);
    expect(((await reactivated.json()) as AccountDeletionStatus).pendingDeletion).toBe(false);
    expect((await again.get('/api/v1/users/current')).status).toBe(200);
    expect(await errorOf(await again.post('/api/v1/partner/account/reactivation'))).toMatchObject({ status: 409, code: 'ACCOUNT_NOT_PENDING_DELETION' });
  });

  it('the scheduled job erases an account once its window has passed (clock advanced), not before', async () => {
    const user = await createTestUser(api);
    await call(api, user, 'POST', DELETION, { confirmation: `${user.id}@example.test` });
    const kept = await createTestUser(api);

    let offsetMs = 0;
    const logger = createLogger('erasure-test', 'silent');
    const deletion = new AccountDeletionService({ db: api.db, logger, retentionDays: 30, now: () => new Date(Date.now() + offsetMs) });
    const job = new AccountErasureJob({ redis: api.redis, logger, deletion, everyMs: 3_600_000, prefix: `test-${randomUUID()}` });
    try {
      offsetMs = 29 * DAY;
      await job.runNow();
      expect(await api.db.user.count({ where: { id: user.id } })).toBe(1);

      offsetMs = 30 * DAY + 60_000;
      expect(await job.runNow()).toBeGreaterThanOrEqual(1);
      expect(await api.db.user.count({ where: { id: user.id } })).toBe(0);
      expect(await api.db.user.count({ where: { id: kept.id } })).toBe(1);
    } finally {
      await job.close();
    }
  });
});
