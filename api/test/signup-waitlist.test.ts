// Signup and Waitlist (issue 40 item 4): with SIGNUP_MODE=waitlist no sign-in makes a new account
// (an existing one still signs in) and a newcomer's address joins the waitlist once; with signing
// up open, the first sign-in makes the account and the waitlist is not there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './helpers/api-server.ts';
import { Browser, codeIn, errorOf, inbox, signInByEmailCode, uniqueEmail } from './helpers/browser.ts';

describe('signing up through the waitlist', () => {
  let api: TestApi;
  let open: TestApi;

  beforeAll(async () => {
    [api, open] = await Promise.all([startTestApi({ SIGNUP_MODE: 'waitlist' }), startTestApi({})]);
  });
  afterAll(async () => {
    await api?.close();
    await open?.close();
  });

  it('says so to the login screen', async () => {
    expect(((await (await fetch(`${api.url}/api/v1/auth/methods`)).json()) as { signup: string }).signup).toBe('waitlist');
    expect(((await (await fetch(`${open.url}/api/v1/auth/methods`)).json()) as { signup: string }).signup).toBe('open');
  });

  it('takes an address once, with the same answer every time, and refuses one that is not an address', async () => {
    const email = uniqueEmail('wait');
    for (const typed of [email, `  ${email.toUpperCase()} `]) {
      const res = await fetch(`${api.url}/api/v1/public/waitlist`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: typed }),
      });
      expect(res.status).toBe(202);
      expect(await res.json()).toEqual({ waitlisted: true });
    }
    expect(await api.db.waitlistEntry.count({ where: { email } })).toBe(1);
    const bad = await fetch(`${api.url}/api/v1/public/waitlist`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'nope' }),
    });
    expect(bad.status).toBe(400);
    const closed = await fetch(`${open.url}/api/v1/public/waitlist`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    expect((await errorOf(closed)).code).toBe('NOT_FOUND');
  });

  it('makes no account at a newcomer’s sign-in, while an existing account signs in as before', async () => {
    const newcomer = uniqueEmail('new');
    const browser = new Browser(api.url);
    expect((await browser.post('/api/auth/email-otp/send-verification-otp', { email: newcomer, type: 'sign-in' })).status).toBe(200);
    const mails = await inbox(api.url, newcomer);
    if (mails.length > 0)
      expect((await browser.post('/api/auth/sign-in/email-otp', { email: newcomer, otp: codeIn(mails[0]!) })).status).toBeGreaterThanOrEqual(400);
    expect(await api.db.user.count({ where: { email: newcomer } })).toBe(0);
    expect(browser.cookies.has('onair.session_token')).toBe(false);

    // An account made while signing up was open keeps signing in.
    const member = uniqueEmail('member');
    await signInByEmailCode(open.url, member);
    const user = await open.db.user.findUniqueOrThrow({ where: { email: member } });
    await api.db.user.create({ data: { id: user.id, email: member, name: '', emailVerified: true } });
    const signedIn = await signInByEmailCode(api.url, member);
    expect((await signedIn.get('/api/v1/users/current')).status).toBe(200);
  });
});
