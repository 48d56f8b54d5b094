import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerAccount } from '@onair/protocol';
import { linkTwitch, personalInfo } from './helpers/partner.ts';
import { call, createTestUser, startStudioApi, type StudioApi } from './helpers/studio-api.ts';

const DAY = 24 * 60 * 60 * 1000;
let api: StudioApi;
// The api's clock: the username cooldown is tested by moving it, not by waiting.
let offsetMs = 0;

beforeAll(async () => {
  api = await startStudioApi({ now: () => new Date(Date.now() + offsetMs) });
});
afterAll(async () => {
  await api?.close();
});

const ACCOUNT = '/api/v1/partner/account';
const issues = (body: unknown) =>
  (body as { error: { details: { issues: { path: string[]; message: string }[] } } }).error.details.issues.map((i) => [i.path.join('.'), i.message]);

describe('Get Started and Personal information', () => {
  it('collects the account of spec §3 once, with the words of §5 for what is missing', async () => {
    const user = await createTestUser(api);
    const fresh = (await call(api, user, 'GET', ACCOUNT)).body as PartnerAccount;
    expect(fresh).toMatchObject({ onboarded: false, profile: null, emailNotifications: { digest: true, productUpdates: true, partnerNews: true } });

    const empty = await call(api, user, 'POST', `${ACCOUNT}/onboarding`, {
      ...personalInfo(''),
      firstName: ' ',
      identity: '',
      streamingDevices: [],
      country: 'XX',
    });
    expect(empty.status).toBe(400);
    expect(issues(empty.body)).toEqual(
      expect.arrayContaining([
        ['username', 'This field is required'],
        ['firstName', 'This field is required'],
        ['identity', 'This field is required'],
        ['streamingDevices', 'Choose at least one device'],
        ['country', 'Choose a country from the list'],
      ]),
    );
    expect(issues((await call(api, user, 'POST', `${ACCOUNT}/onboarding`, personalInfo('ok_name', { birthdate: '2999-01-01' }))).body)).toEqual([
      ['birthdate', 'The birthdate must be in the past'],
    ]);

    const done = await call(api, user, 'POST', `${ACCOUNT}/onboarding`, personalInfo('First_Streamer'));
    expect(done).toMatchObject({ status: 200, body: { onboarded: true, usernameChangeAvailableAt: null, profile: personalInfo('First_Streamer') } });
    expect((await call(api, user, 'POST', `${ACCOUNT}/onboarding`, personalInfo('Again'))).status).toBe(409);

    const other = await createTestUser(api);
    expect(await call(api, other, 'POST', `${ACCOUNT}/onboarding`, personalInfo('first_streamer'))).toMatchObject({
      status: 409,
      body: { error: { code: 'USERNAME_TAKEN' } },
    });
  });

  it('lets the username change again only after the cooldown (clock advanced)', async () => {
    const user = await createTestUser(api);
    await call(api, user, 'POST', `${ACCOUNT}/onboarding`, personalInfo('Cool_One'));
    const changed = await call(api, user, 'PUT', `${ACCOUNT}/personal-info`, personalInfo('Cool_Two', { country: 'FR', streamingDevices: ['Xbox'] }));
    expect(changed).toMatchObject({
      status: 200,
      body: { profile: { username: 'Cool_Two', country: 'FR', streamingDevices: ['Xbox'] }, usernameChangeAvailableAt: expect.any(String) },
    });
    const availableAt = (changed.body as PartnerAccount).usernameChangeAvailableAt!;

    // Other fields still change; only the name waits. Letter case alone is not a change of name.
    expect((await call(api, user, 'PUT', `${ACCOUNT}/personal-info`, personalInfo('cool_two', { lastName: 'Byron' }))).status).toBe(200);
    const refused = await call(api, user, 'PUT', `${ACCOUNT}/personal-info`, personalInfo('Cool_Three'));
    expect(refused).toMatchObject({
      status: 409,
      body: {
        error: {
          code: 'USERNAME_CHANGE_TOO_SOON',
          message: `You can change your username once every 30 days. You can change it again on ${availableAt.slice(0, 10)}.`,
        },
      },
    });

    offsetMs = 29 * DAY;
    expect((await call(api, user, 'PUT', `${ACCOUNT}/personal-info`, personalInfo('Cool_Three'))).status).toBe(409);
    offsetMs = 30 * DAY + 60_000;
    expect(await call(api, user, 'PUT', `${ACCOUNT}/personal-info`, personalInfo('Cool_Three'))).toMatchObject({
      status: 200,
      body: { profile: { username: 'Cool_Three' } },
    });
    offsetMs = 0;
  });

  it('keeps e-mail notification choices', async () => {
    const user = await createTestUser(api);
    expect(await call(api, user, 'PUT', `${ACCOUNT}/email-notifications`, { digest: false, productUpdates: true, partnerNews: false })).toMatchObject({
      status: 200,
      body: { emailNotifications: { digest: false, productUpdates: true, partnerNews: false } },
    });
    expect(((await call(api, user, 'GET', ACCOUNT)).body as PartnerAccount).emailNotifications).toEqual({
      digest: false,
      productUpdates: true,
      partnerNews: false,
    });
  });
});

describe('Integrations', () => {
  it('keeps at least one login method (spec §5)', async () => {
    const user = await createTestUser(api);
    await linkTwitch(api, user, 'only_way');
    const account = (await call(api, user, 'GET', ACCOUNT)).body as PartnerAccount;
    expect(account.loginMethods.find((m) => m.id === 'twitch')).toMatchObject({ connected: true, detail: 'only_way', canDisconnect: false });
    expect(await call(api, user, 'DELETE', `${ACCOUNT}/login-methods/twitch`)).toMatchObject({ status: 409, body: { error: { code: 'LAST_LOGIN_METHOD' } } });

    // With a verified e-mail there is another way in: Twitch may go.
    await api.db.user.update({ where: { id: user.id }, data: { emailVerified: true } });
    const after = await call(api, user, 'DELETE', `${ACCOUNT}/login-methods/twitch`);
    expect(after.status).toBe(200);
    expect((after.body as PartnerAccount).loginMethods.filter((m) => m.connected).map((m) => m.id)).toEqual(['email']);
    expect((await call(api, user, 'DELETE', `${ACCOUNT}/login-methods/twitch`)).status).toBe(404);
  });
});

describe('avatar upload', () => {
  // The smallest valid PNG (1×1, transparent).
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

  it('keeps a real image, serves it as that image, and refuses what only claims to be one', async () => {
    const user = await createTestUser(api);
    const uploaded = await call(api, user, 'PUT', `${ACCOUNT}/avatar`, { dataUrl: `data:image/png;base64,${png}` });
    expect(uploaded.status).toBe(200);
    const avatar = (uploaded.body as PartnerAccount).avatar!;
    expect(avatar).toMatch(new RegExp(`^/api/v1/partner/avatars/${user.id}\\?v=\\d+$`));
    const res = await fetch(`${api.url}${avatar}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(Buffer.from(png, 'base64'));
    // The studio's user menu shows the same picture.
    expect(((await call(api, user, 'GET', '/api/v1/users/current')).body as { avatar: string }).avatar).toBe(avatar);

    // HTML with an image's name: refused by its bytes.
    const html = Buffer.from('<script>alert(1)</script>').toString('base64');
    expect(await call(api, user, 'PUT', `${ACCOUNT}/avatar`, { dataUrl: `data:image/png;base64,${html}` })).toMatchObject({
      status: 400,
      body: { error: { code: 'AVATAR_INVALID' } },
    });
    expect((await call(api, user, 'PUT', `${ACCOUNT}/avatar`, { dataUrl: 'data:image/svg+xml;base64,PHN2Zz4=' })).status).toBe(400);

    expect(await call(api, user, 'DELETE', `${ACCOUNT}/avatar`)).toMatchObject({ status: 200, body: { avatar: null } });
    expect((await fetch(`${api.url}/api/v1/partner/avatars/${user.id}`)).status).toBe(404);
  });
});
