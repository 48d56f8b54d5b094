// Mail under the creator's preferences (issue 40 item 3) against the real api, PostgreSQL and Redis:
// the weekly digest through its BullMQ job (only to accounts whose digest switch is on, once per
// week), the unsubscribe link of every preference mail (works signed out, refuses a forged token),
// campaign mails as partner news and the operators' announcements, each obeying its switch.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerAccount } from '@onair/protocol';
import { createLogger } from '@onair/runtime';
import { DevInbox, DevInboxMailer } from '../src/mail/dev-inbox.ts';
import { DigestJob, DigestService } from '../src/notifications/digest.ts';
import { PreferenceMailer } from '../src/notifications/preference-mailer.ts';
import { UnsubscribeTokens } from '../src/notifications/unsubscribe-token.ts';
import { emailOf, personalInfo } from './helpers/partner.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let admin: TestUser;
let digests: DigestService;
let job: DigestJob;
const logger = createLogger('notifications-test', 'silent');
// The digest's run time: Monday 09:00 UTC; its week is the seven days before.
const clock = new Date('2026-11-30T09:00:00.000Z');
const HOUR = 3_600_000;

beforeAll(async () => {
  api = await startStudioApi();
  admin = await createTestUser(api);
  await api.db.user.update({ where: { id: admin.id }, data: { userType: 'ADMIN' } });
  const mail = new PreferenceMailer({
    db: api.db,
    mailer: new DevInboxMailer(new DevInbox(api.redis)),
    tokens: new UnsubscribeTokens(api.authSecret),
    publicUrl: api.url,
    logger,
  });
  digests = new DigestService({ db: api.db, redis: api.redis, mail, publicUrl: api.url, logger, now: () => clock });
  job = new DigestJob({ redis: api.redis, logger, digests, cron: '0 9 * * 1', prefix: `test-${randomUUID()}` });
});
afterAll(async () => {
  await job?.close();
  await api?.close();
});

interface Mail {
  subject: string;
  text: string;
  html: string;
}
async function inbox(to: string): Promise<Mail[]> {
  const res = await fetch(`${api.url}/api/v1/dev/inbox?to=${encodeURIComponent(to)}`);
  return ((await res.json()) as { messages: Mail[] }).messages;
}

const unsubscribeLink = (mail: Mail) => /Unsubscribe from [^:]+: (\S+)/.exec(mail.text)?.[1] ?? '';

/** An onboarded creator with a project; `week` seeds a stream, two followers and a tip in the digest's week. */
async function creator(options: { week?: boolean } = {}): Promise<{ user: TestUser; projectId: string }> {
  const user = await createTestUser(api);
  const onboarded = await call(api, user, 'POST', '/api/v1/partner/account/onboarding', personalInfo(`n${user.id.replace(/[^A-Za-z0-9]/g, '').slice(0, 12)}`));
  expect(onboarded.status, JSON.stringify(onboarded.body)).toBe(200);
  const project = await call(api, user, 'POST', '/api/v1/projects', { name: 'Main show' });
  const projectId = (project.body as { id: string }).id;
  if (options.week) {
    const at = (hoursBefore: number) => new Date(clock.getTime() - hoursBefore * HOUR);
    await api.db.broadcast.create({ data: { projectId, state: 'ended', startedAt: at(50), endedAt: at(47.5) } });
    // Before the week: not counted.
    await api.db.broadcast.create({ data: { projectId, state: 'ended', startedAt: at(24 * 8), endedAt: at(24 * 8 - 1) } });
    const follow = (id: string, hoursBefore: number, replay = false) => ({
      projectId,
      platform: 'twitch',
      platformEventId: `${id}-${user.id}`,
      type: 'follow',
      platformUsername: id,
      data: {},
      replay,
      platformCreatedAt: at(hoursBefore),
    });
    await api.db.liveEvent.createMany({ data: [follow('ann', 49), follow('bob', 30), follow('cid', 30, true), follow('old', 24 * 9)] });
    await api.db.ledgerEntry.createMany({
      data: [
        { channelId: user.id, kind: 'tip', amount: 1500, currency: 'usd', createdAt: at(48) },
        { channelId: user.id, kind: 'tip_refund', amount: -266, currency: 'usd', createdAt: at(20) },
        { channelId: user.id, kind: 'tip', amount: 9999, currency: 'usd', createdAt: at(24 * 7 + 1) },
      ],
    });
  }
  return { user, projectId };
}

const setPrefs = (user: TestUser, prefs: { digest: boolean; productUpdates: boolean; partnerNews: boolean }) =>
  call(api, user, 'PUT', '/api/v1/partner/account/email-notifications', prefs);

describe('the weekly digest', () => {
  it('goes through its job only to those whose digest switch is on, with streams, followers, revenue and offers, once a week', async () => {
    const campaign = await api.db.campaign.create({
      data: { name: `Skyward ${randomUUID().slice(0, 4)}`, kind: 'game-key', game: 'Skyward', status: 'active' },
    });
    await api.db.campaign.create({ data: { name: 'A draft', kind: 'game-key', game: 'Hidden', status: 'draft' } });
    const wants = await creator({ week: true });
    const declined = await creator({ week: true });
    expect((await setPrefs(declined.user, { digest: false, productUpdates: true, partnerNews: true })).status).toBe(200);

    const first = await job.runNow();
    expect(first.sent).toBeGreaterThanOrEqual(1);
    const mails = await inbox(emailOf(wants.user));
    expect(mails).toHaveLength(1);
    const digest = mails[0]!;
    expect(digest.subject).toBe('Your week on OnAir: 2026-11-23 to 2026-11-30');
    expect(digest.text).toContain('Streams: 1 stream, 2.5 hours live.');
    expect(digest.text).toContain('Followers: 2 new followers.');
    expect(digest.text).toContain('Revenue: $12.34.');
    expect(digest.text).toContain(`- ${campaign.name} (Skyward): ${api.url}/partner/campaigns/${campaign.id}`);
    expect(digest.text).not.toContain('A draft');
    expect(unsubscribeLink(digest)).toMatch(new RegExp(`^${api.url}/api/v1/public/unsubscribe\\?token=`));
    expect(digest.html).toContain('Unsubscribe from the weekly digest');
    expect(await inbox(emailOf(declined.user))).toEqual([]);

    // A retried run (or a second replica) in the same week mails nobody twice.
    const again = await job.runNow();
    expect(again.sent).toBe(0);
    expect(again.alreadySent).toBe(first.sent);
    expect(await inbox(emailOf(wants.user))).toHaveLength(1);
  });

  it('lists an invitation first, and leaves out campaigns the creator already applied to', async () => {
    const { user } = await creator();
    const applied = await api.db.campaign.create({ data: { name: 'Applied one', kind: 'game-key', game: 'A', status: 'active' } });
    const invited = await api.db.campaign.create({ data: { name: 'Invited one', kind: 'game-key', game: 'B', status: 'active' } });
    await api.db.campaignApplication.createMany({
      data: [
        { campaignId: applied.id, creatorId: user.id, status: 'applied' },
        { campaignId: invited.id, creatorId: user.id, status: 'invited' },
      ],
    });
    const digest = await digests.build(user.id, clock);
    expect(digest.offers[0]).toMatchObject({ name: 'Invited one', invited: true });
    expect(digest.offers.map((o) => o.name)).not.toContain('Applied one');
    expect(digest).toMatchObject({ streams: 0, newFollowers: 0, revenue: [] });
  });
});

describe('the unsubscribe link', () => {
  it('works without signing in: a confirmation page, then the switch is off', async () => {
    const { user } = await creator();
    await api.db.campaign.create({ data: { name: `Offer ${randomUUID().slice(0, 4)}`, kind: 'game-key', game: 'G', status: 'active' } });
    await digests.sendAll();
    const link = unsubscribeLink((await inbox(emailOf(user)))[0]!);
    expect(link).not.toBe('');

    // No cookie anywhere below. A GET (a mail scanner following the link) changes nothing.
    const confirm = await fetch(link);
    expect(confirm.status).toBe(200);
    expect(confirm.headers.get('content-security-policy')).toContain("default-src 'none'");
    const page = await confirm.text();
    expect(page).toContain('Unsubscribe from the weekly digest?');
    expect(page).toContain('<form method="post"');
    expect(((await call(api, user, 'GET', '/api/v1/partner/account')).body as PartnerAccount).emailNotifications.digest).toBe(true);

    const done = await fetch(link, { method: 'POST' });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('OnAir will not send you the weekly digest any more.');
    expect(((await call(api, user, 'GET', '/api/v1/partner/account')).body as PartnerAccount).emailNotifications).toEqual({
      digest: false,
      productUpdates: true,
      partnerNews: true,
    });
  });

  it("takes a mail client's one-click POST (RFC 8058)", async () => {
    const { user } = await creator();
    const url = `${api.url}/api/v1/public/unsubscribe?token=${new UnsubscribeTokens(api.authSecret).sign(user.id, 'productUpdates')}`;
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(res.status).toBe(200);
    expect(((await call(api, user, 'GET', '/api/v1/partner/account')).body as PartnerAccount).emailNotifications.productUpdates).toBe(false);
  });

  it('refuses a forged, altered or foreign token and changes nothing', async () => {
    const { user: victim } = await creator();
    const { user: attacker } = await creator();
    const tokens = new UnsubscribeTokens(api.authSecret);
    const own = tokens.sign(attacker.id, 'digest');
    const [, signature] = own.split('.');
    const forged = [
      // The attacker's own signature on the victim's id.
      `${Buffer.from(`${victim.id}\ndigest`).toString('base64url')}.${signature}`,
      // Signed with another secret.
      new UnsubscribeTokens('another-secret-another-secret-another-secret').sign(victim.id, 'digest'),
      // A valid signature for another kind.
      `${Buffer.from(`${attacker.id}\npartnerNews`).toString('base64url')}.${signature}`,
      // A token for an account that does not exist.
      tokens.sign(randomUUID(), 'digest'),
      'not-a-token',
    ];
    for (const token of forged) {
      for (const method of ['GET', 'POST']) {
        const res = await fetch(`${api.url}/api/v1/public/unsubscribe?token=${encodeURIComponent(token)}`, { method });
        expect(res.status, `${method} ${token}`).toBe(404);
        expect(await res.text()).toContain('This unsubscribe link is not valid.');
      }
    }
    for (const u of [victim, attacker]) {
      expect(((await call(api, u, 'GET', '/api/v1/partner/account')).body as PartnerAccount).emailNotifications).toEqual({
        digest: true,
        productUpdates: true,
        partnerNews: true,
      });
    }
  });
});

describe('campaign mails and announcements obey their switches', () => {
  it('mails a campaign invitation as partner news: not to who turned it off, with the link to those who did not', async () => {
    const campaign = await api.db.campaign.create({ data: { name: `News ${randomUUID().slice(0, 4)}`, kind: 'game-key', game: 'G', status: 'active' } });
    const { user: off } = await creator();
    const { user: on } = await creator();
    expect((await setPrefs(off, { digest: true, productUpdates: true, partnerNews: false })).status).toBe(200);
    for (const u of [off, on]) {
      const res = await call(api, admin, 'POST', `/api/v1/admin/campaigns/${campaign.id}/invitations`, { email: emailOf(u) });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    // The invitation stands either way; only the mail follows the switch.
    expect(await api.db.campaignApplication.count({ where: { campaignId: campaign.id, status: 'invited' } })).toBe(2);
    expect(await inbox(emailOf(off))).toEqual([]);
    const [invitation] = await inbox(emailOf(on));
    expect(invitation!.subject).toBe(`You are invited to ${campaign.name}`);
    const link = unsubscribeLink(invitation!);
    expect(invitation!.text).toContain('Unsubscribe from partner news:');
    expect((await fetch(link, { method: 'POST' })).status).toBe(200);
    expect(((await call(api, on, 'GET', '/api/v1/partner/account')).body as PartnerAccount).emailNotifications.partnerNews).toBe(false);
  });

  it('sends product updates only to those whose switch is on; the admin portal only', async () => {
    const { user: on } = await creator();
    const { user: off } = await creator();
    expect((await setPrefs(off, { digest: true, productUpdates: false, partnerNews: true })).status).toBe(200);
    const body = { kind: 'productUpdates', subject: 'New: vertical output', text: 'Stream 9:16 next to 16:9.\n\nTry it in the studio.' };
    expect((await call(api, on, 'POST', '/api/v1/admin/announcements', body)).status).toBe(403);
    expect((await call(api, null, 'POST', '/api/v1/admin/announcements', body)).status).toBe(401);
    const sent = await call(api, admin, 'POST', '/api/v1/admin/announcements', body);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect((sent.body as { optedOut: number }).optedOut).toBeGreaterThanOrEqual(1);
    const [mail] = await inbox(emailOf(on));
    expect(mail).toMatchObject({ subject: 'New: vertical output' });
    expect(mail!.text).toContain('Unsubscribe from product updates:');
    expect(mail!.html).toContain('<p>Try it in the studio.</p>');
    expect(await inbox(emailOf(off))).toEqual([]);
    expect(await api.db.adminAuditEntry.count({ where: { action: 'announcement-sent', actorId: admin.id } })).toBe(1);
  });
});
