import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './helpers/api-server.ts';
import { Browser, codeIn, errorOf, inbox, latestMessage, linkIn, signInByEmailCode, uniqueEmail } from './helpers/browser.ts';
import { totpFromUri } from './helpers/totp.ts';

let api: TestApi;

beforeAll(async () => {
  // Every request here comes from 127.0.0.1; the per-IP limit has its own test.
  api = await startTestApi({ AUTH_RATE_LIMIT_PER_IP: '1000' });
});
afterAll(async () => {
  await api?.close();
});

async function requestMagicLink(browser: Browser, email: string): Promise<string> {
  const before = (await inbox(api.url, email)).length;
  const res = await browser.post('/api/auth/sign-in/magic-link', { email, callbackURL: '/', errorCallbackURL: '/' });
  expect(res.status).toBe(200);
  const mail = await latestMessage(api.url, email, before + 1);
  expect(mail.subject).toBe('Your OnAir sign-in link');
  return linkIn(mail);
}

describe('magic link', () => {
  it('signs a new user in once; a replayed link gets LINK_INVALID and no session', async () => {
    const email = uniqueEmail('magic');
    const browser = new Browser(api.url);
    const link = await requestMagicLink(browser, email);
    expect(new URL(link).origin).toBe(api.url);
    const used = await browser.get(link);
    expect(used.status).toBe(302);
    expect(used.headers.get('location')).toBe(`${api.url}/`);
    expect(browser.cookies.has('onair.session_token')).toBe(true);
    expect((await browser.get('/api/v1/users/current')).status).toBe(200);

    const thief = new Browser(api.url);
    const replay = await thief.get(link);
    const location = new URL(replay.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('LINK_INVALID');
    expect(location.searchParams.get('error_description')).toBe('This sign-in link has expired or was already used. Ask for a new one.');
    expect(thief.cookies.has('onair.session_token')).toBe(false);
  });

  it('refuses an expired link with LINK_INVALID and creates no user', async () => {
    const email = uniqueEmail('stale');
    const browser = new Browser(api.url);
    const link = await requestMagicLink(browser, email);
    const aged = await api.db.verification.updateMany({ where: { value: { contains: email } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(aged.count).toBe(1);
    const res = await browser.get(link);
    expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('LINK_INVALID');
    expect(await api.db.user.count({ where: { email } })).toBe(0);
    expect(browser.cookies.has('onair.session_token')).toBe(false);
  });
});

describe('multi-factor authentication (TOTP with recovery codes)', () => {
  it('enables MFA, then asks for it at every passwordless sign-in; recovery codes work once; disable turns it off', async () => {
    const email = uniqueEmail('mfa');
    const browser = await signInByEmailCode(api.url, email);
    const enabled = await browser.post('/api/auth/two-factor/enable', {});
    expect(enabled.status).toBe(200);
    const { totpURI, backupCodes } = (await enabled.json()) as { totpURI: string; backupCodes: string[] };
    expect(totpURI).toMatch(/^otpauth:\/\/totp\/OnAir:/);
    expect(backupCodes).toHaveLength(10);
    // Not on until the first code from the app is confirmed.
    expect(await (await browser.get('/api/v1/users/current')).json()).toMatchObject({ twoFactorEnabled: false });
    const wrongSetup = await browser.post('/api/auth/two-factor/verify-totp', { code: '000000' === totpFromUri(totpURI) ? '111111' : '000000' });
    expect((await errorOf(wrongSetup)).code).toBe('MFA_CODE_INVALID');
    expect((await browser.post('/api/auth/two-factor/verify-totp', { code: totpFromUri(totpURI) })).status).toBe(200);
    expect(await (await browser.get('/api/v1/users/current')).json()).toMatchObject({ twoFactorEnabled: true });

    // E-mail code sign-in now stops at "MFA requested": no session yet.
    const second = new Browser(api.url);
    await second.post('/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' });
    const code = codeIn(await latestMessage(api.url, email, 2));
    const first = await second.post('/api/auth/sign-in/email-otp', { email, otp: code });
    expect(await first.json()).toEqual({ twoFactorRedirect: true, twoFactorMethods: ['totp', 'backup-code'] });
    expect(second.cookies.has('onair.session_token')).toBe(false);
    expect((await errorOf(await second.get('/api/v1/users/current'))).code).toBe('UNAUTHENTICATED');
    const wrong = await second.post('/api/auth/two-factor/verify-totp', { code: '000000' === totpFromUri(totpURI) ? '111111' : '000000' });
    expect(await errorOf(wrong)).toEqual({
      status: 400,
      code: 'MFA_CODE_INVALID',
      message: 'That authentication code is not right. Check your authenticator app.',
    });
    expect((await second.post('/api/auth/two-factor/verify-totp', { code: totpFromUri(totpURI) })).status).toBe(200);
    expect((await second.get('/api/v1/users/current')).status).toBe(200);

    // A magic link stops at MFA too, and a recovery code finishes the sign-in exactly once.
    const third = new Browser(api.url);
    const link = await requestMagicLink(third, email);
    const landed = await third.get(link);
    expect(landed.headers.get('location')).toBe(`${api.url}/login?mfa=required`);
    expect(third.cookies.has('onair.session_token')).toBe(false);
    expect((await third.post('/api/auth/two-factor/verify-backup-code', { code: backupCodes[0] })).status).toBe(200);
    expect((await third.get('/api/v1/users/current')).status).toBe(200);

    const fourth = new Browser(api.url);
    await fourth.get(await requestMagicLink(fourth, email));
    const reused = await fourth.post('/api/auth/two-factor/verify-backup-code', { code: backupCodes[0] });
    expect((await errorOf(reused)).code).toBe('RECOVERY_CODE_INVALID');

    // Without a pending sign-in there is nothing to finish.
    expect((await errorOf(await new Browser(api.url).post('/api/auth/two-factor/verify-totp', { code: '123456' }))).code).toBe('MFA_SIGN_IN_EXPIRED');

    expect((await browser.post('/api/auth/two-factor/disable', {})).status).toBe(200);
    expect(await (await browser.get('/api/v1/users/current')).json()).toMatchObject({ twoFactorEnabled: false });
    const fifth = await signInByEmailCode(api.url, email);
    expect((await fifth.get('/api/v1/users/current')).status).toBe(200);
  });
});

describe('SMS code (behind the pluggable sender; here the development inbox)', () => {
  it('adds a verified phone number to an account, then signs in with an SMS code', async () => {
    const email = uniqueEmail('sms');
    const phone = `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const browser = await signInByEmailCode(api.url, email);
    expect((await browser.post('/api/auth/phone-number/send-otp', { phoneNumber: phone })).status).toBe(200);
    const sms = await latestMessage(api.url, phone);
    expect(sms.channel).toBe('sms');
    expect((await browser.post('/api/auth/phone-number/verify', { phoneNumber: phone, code: codeIn(sms), updatePhoneNumber: true })).status).toBe(200);
    expect(await (await browser.get('/api/v1/users/current')).json()).toMatchObject({ phoneNumber: phone });

    const phoneBrowser = new Browser(api.url);
    await phoneBrowser.post('/api/auth/phone-number/send-otp', { phoneNumber: phone });
    const code = codeIn(await latestMessage(api.url, phone, 2));
    const wrong = await phoneBrowser.post('/api/auth/phone-number/verify', { phoneNumber: phone, code: code === '000000' ? '111111' : '000000' });
    expect((await errorOf(wrong)).code).toBe('CODE_INVALID');
    expect((await phoneBrowser.post('/api/auth/phone-number/verify', { phoneNumber: phone, code })).status).toBe(200);
    expect(await (await phoneBrowser.get('/api/v1/users/current')).json()).toMatchObject({ email });

    // An SMS code past its lifetime: CODE_EXPIRED, and no session.
    const late = new Browser(api.url);
    await late.post('/api/auth/phone-number/send-otp', { phoneNumber: phone });
    const lateCode = codeIn(await latestMessage(api.url, phone, 3));
    const aged = await api.db.verification.updateMany({ where: { identifier: { contains: phone } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(aged.count).toBeGreaterThan(0);
    expect((await errorOf(await late.post('/api/auth/phone-number/verify', { phoneNumber: phone, code: lateCode }))).code).toBe('CODE_EXPIRED');
    expect(late.cookies.has('onair.session_token')).toBe(false);
  });

  it('refuses a malformed number (PHONE_INVALID) and never creates an account from an unknown number', async () => {
    const browser = new Browser(api.url);
    expect(await errorOf(await browser.post('/api/auth/phone-number/send-otp', { phoneNumber: '555-CALL-NOW' }))).toMatchObject({
      status: 400,
      code: 'PHONE_INVALID',
    });
    const stranger = '+15550009999';
    await browser.post('/api/auth/phone-number/send-otp', { phoneNumber: stranger });
    const before = await api.db.user.count();
    const code = codeIn(await latestMessage(api.url, stranger));
    expect((await errorOf(await browser.post('/api/auth/phone-number/verify', { phoneNumber: stranger, code }))).code).toBe('CODE_INVALID');
    expect(await api.db.user.count()).toBe(before);
  });
});

describe('e-mail change with verification', () => {
  it('sends a code to the new address and switches only after it is confirmed', async () => {
    const email = uniqueEmail('old');
    const next = uniqueEmail('new');
    const browser = await signInByEmailCode(api.url, email);
    expect((await browser.post('/api/auth/email-otp/request-email-change', { newEmail: next })).status).toBe(200);
    const mail = await latestMessage(api.url, next);
    expect(mail.subject).toMatch(/Confirm your new e-mail address/);
    expect(await (await browser.get('/api/v1/users/current')).json()).toMatchObject({ email });

    const wrong = await browser.post('/api/auth/email-otp/change-email', { newEmail: next, otp: codeIn(mail) === '000000' ? '111111' : '000000' });
    expect((await errorOf(wrong)).code).toBe('CODE_INVALID');
    expect((await browser.post('/api/auth/email-otp/change-email', { newEmail: next, otp: codeIn(mail) })).status).toBe(200);
    expect(await (await browser.get('/api/v1/users/current')).json()).toMatchObject({ email: next, emailVerified: true });
  });

  it('says plainly when the new address is malformed, taken or unchanged', async () => {
    const email = uniqueEmail('mine');
    const taken = uniqueEmail('taken');
    await signInByEmailCode(api.url, taken);
    const browser = await signInByEmailCode(api.url, email);
    expect((await errorOf(await browser.post('/api/auth/email-otp/request-email-change', { newEmail: 'nope' }))).code).toBe('EMAIL_INVALID');
    expect(await errorOf(await browser.post('/api/auth/email-otp/request-email-change', { newEmail: taken }))).toEqual({
      status: 409,
      code: 'EMAIL_IN_USE',
      message: 'That e-mail address belongs to another account.',
    });
    expect((await errorOf(await browser.post('/api/auth/email-otp/request-email-change', { newEmail: email }))).code).toBe('EMAIL_UNCHANGED');
    expect(await inbox(api.url, taken)).toHaveLength(1);
  });
});
