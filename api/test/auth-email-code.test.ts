import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './helpers/api-server.ts';
import { Browser, codeIn, errorOf, inbox, latestMessage, signInByEmailCode, uniqueEmail } from './helpers/browser.ts';

describe('sign-in by e-mail code', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi({ ADMIN_EMAILS: 'boss@example.com', TESTER_EMAILS: 'qa.person@example.com', TESTER_DOMAINS: 'onair.test' });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('sends a code to the inbox and signs a new user in with it, with a session cookie', async () => {
    const email = uniqueEmail('code');
    const browser = new Browser(api.url);
    const sent = await browser.post('/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' });
    expect(sent.status).toBe(200);
    const mail = await latestMessage(api.url, email);
    expect(mail.channel).toBe('email');
    expect(mail.subject).toMatch(/sign-in code/i);
    expect(await api.db.user.count({ where: { email } })).toBe(0);

    const signedIn = await browser.post('/api/auth/sign-in/email-otp', { email, otp: codeIn(mail) });
    expect(signedIn.status).toBe(200);
    expect(browser.cookies.has('onair.session_token')).toBe(true);

    const me = await browser.get('/api/v1/users/current');
    expect(me.status).toBe(200);
    const user = (await me.json()) as Record<string, unknown>;
    expect(user).toMatchObject({
      email,
      displayName: '',
      avatar: null,
      userType: 'HOST',
      labels: [],
      role: 'Free',
      resolution: { x: 1280, y: 720 },
      emailVerified: true,
    });
    expect(typeof user.lastLoggedInAt).toBe('string');
  });

  it('gives a session cookie and a session that last 7 days (studio spec: cookie lifetime 7 days)', async () => {
    const email = uniqueEmail('lifetime');
    const browser = new Browser(api.url);
    // An address of its own, so this sign-in does not count against the other tests' per-IP limit.
    const ip = { 'x-forwarded-for': '10.7.7.7' };
    await browser.post('/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' }, ip);
    const before = Date.now();
    const res = await fetch(`${api.url}/api/auth/sign-in/email-otp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: api.url, ...ip },
      body: JSON.stringify({ email, otp: codeIn(await latestMessage(api.url, email)) }),
    });
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().find((line) => line.startsWith('onair.session_token='));
    expect(cookie).toMatch(/;\s*Max-Age=604800\b/i);
    const session = await api.db.session.findFirstOrThrow({ where: { user: { email } } });
    const days = (session.expiresAt.getTime() - before) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);
  });

  it('records lastLoggedInAt at every sign-in, not at other requests', async () => {
    const email = uniqueEmail('again');
    const first = await signInByEmailCode(api.url, email);
    const before = ((await (await first.get('/api/v1/users/current')).json()) as { lastLoggedInAt: string }).lastLoggedInAt;
    await new Promise((r) => setTimeout(r, 20));
    expect(((await (await first.get('/api/v1/users/current')).json()) as { lastLoggedInAt: string }).lastLoggedInAt).toBe(before);
    await signInByEmailCode(api.url, email);
    const after = ((await (await first.get('/api/v1/users/current')).json()) as { lastLoggedInAt: string }).lastLoggedInAt;
    expect(new Date(after).getTime()).toBeGreaterThan(new Date(before).getTime());
  });

  it('answers UNAUTHENTICATED without a session and after sign-out', async () => {
    const anonymous = await fetch(`${api.url}/api/v1/users/current`);
    expect((await errorOf(anonymous)).code).toBe('UNAUTHENTICATED');

    const browser = await signInByEmailCode(api.url, uniqueEmail('out'));
    expect((await browser.get('/api/v1/users/current')).status).toBe(200);
    const out = await browser.post('/api/auth/sign-out', {});
    expect(out.status).toBe(200);
    expect(browser.cookies.has('onair.session_token')).toBe(false);
    expect((await errorOf(await browser.get('/api/v1/users/current'))).code).toBe('UNAUTHENTICATED');
  });

  it('accepts the loopback aliases of PUBLIC_URL as origins and refuses a foreign origin', async () => {
    const browser = await signInByEmailCode(api.url, uniqueEmail('origin'));
    const alias = api.url.replace('127.0.0.1', 'localhost');
    const viaAlias = await browser.post('/api/auth/email-otp/request-email-change', { newEmail: uniqueEmail('alias') }, { origin: alias });
    expect(viaAlias.status).toBe(200);
    const foreign = await browser.post('/api/auth/email-otp/request-email-change', { newEmail: uniqueEmail('evil') }, { origin: 'https://evil.example' });
    expect((await errorOf(foreign)).code).toBe('FORBIDDEN');
  });

  it('has no password sign-in or sign-up: OnAir is passwordless', async () => {
    const browser = new Browser(api.url);
    const email = uniqueEmail('password');
    const signUp = await browser.post('/api/auth/sign-up/email', { email, password: 'correct horse battery', name: 'x' });
    expect(signUp.status).toBe(404);
    expect((await browser.post('/api/auth/sign-in/email', { email, password: 'correct horse battery' })).status).toBe(404);
    expect(await api.db.user.count({ where: { email } })).toBe(0);
  });

  it('refuses a malformed address with EMAIL_INVALID and sends nothing', async () => {
    const browser = new Browser(api.url);
    const res = await browser.post('/api/auth/email-otp/send-verification-otp', { email: 'not-an-address', type: 'sign-in' });
    expect(await errorOf(res)).toEqual({ status: 400, code: 'EMAIL_INVALID', message: 'Enter a valid e-mail address.' });
    expect(await inbox(api.url, 'not-an-address')).toEqual([]);
    const magic = await browser.post('/api/auth/sign-in/magic-link', { email: 'a@@b' });
    expect((await errorOf(magic)).code).toBe('EMAIL_INVALID');
    expect(await api.db.verification.count({ where: { identifier: { contains: 'not-an-address' } } })).toBe(0);
  });

  it('refuses a wrong code with CODE_INVALID, creating no user, and still accepts the right one', async () => {
    const email = uniqueEmail('wrong');
    const browser = new Browser(api.url);
    await browser.post('/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' });
    const code = codeIn(await latestMessage(api.url, email));
    const wrong = code === '000000' ? '111111' : '000000';
    const res = await browser.post('/api/auth/sign-in/email-otp', { email, otp: wrong });
    expect(await errorOf(res)).toEqual({ status: 400, code: 'CODE_INVALID', message: 'That code is not right. Check it and try again.' });
    expect(await api.db.user.count({ where: { email } })).toBe(0);
    expect(browser.cookies.has('onair.session_token')).toBe(false);
    expect((await browser.post('/api/auth/sign-in/email-otp', { email, otp: code })).status).toBe(200);
  });

  it('refuses an expired code with CODE_EXPIRED and creates no user', async () => {
    const email = uniqueEmail('expired');
    const browser = new Browser(api.url);
    await browser.post('/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' });
    const code = codeIn(await latestMessage(api.url, email));
    // Let the code age past its lifetime rather than waiting five minutes.
    const aged = await api.db.verification.updateMany({ where: { identifier: { endsWith: email } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(aged.count).toBe(1);
    const res = await browser.post('/api/auth/sign-in/email-otp', { email, otp: code });
    expect(await errorOf(res)).toEqual({ status: 400, code: 'CODE_EXPIRED', message: 'That code has expired. Ask for a new one.' });
    expect(await api.db.user.count({ where: { email } })).toBe(0);
  });

  it('burns the code after three wrong tries (CODE_ATTEMPTS_EXCEEDED), even for the right code', async () => {
    const email = uniqueEmail('attempts');
    const browser = new Browser(api.url);
    await browser.post('/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' });
    const code = codeIn(await latestMessage(api.url, email));
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 3; i++) expect((await errorOf(await browser.post('/api/auth/sign-in/email-otp', { email, otp: wrong }))).code).toBe('CODE_INVALID');
    const locked = await errorOf(await browser.post('/api/auth/sign-in/email-otp', { email, otp: code }));
    expect(locked).toEqual({ status: 429, code: 'CODE_ATTEMPTS_EXCEEDED', message: 'Too many wrong codes. Ask for a new one.' });
    expect(await api.db.user.count({ where: { email } })).toBe(0);
  });

  it('makes configured addresses admins and labels testers with the normalisation rule', async () => {
    const boss = await signInByEmailCode(api.url, 'boss@example.com');
    expect(await (await boss.get('/api/v1/users/current')).json()).toMatchObject({ userType: 'ADMIN', labels: [] });
    const qa = await signInByEmailCode(api.url, 'QA-Person+stream@Example.com');
    expect(await (await qa.get('/api/v1/users/current')).json()).toMatchObject({ userType: 'HOST', labels: ['tester'] });
    const staff = await signInByEmailCode(api.url, `${uniqueEmail('staff').split('@')[0]}@onair.test`);
    expect(await (await staff.get('/api/v1/users/current')).json()).toMatchObject({ labels: ['tester'] });
  });

  it('issues a short-lived API JWT that works as a bearer token, and session tokens work as bearer too', async () => {
    const browser = await signInByEmailCode(api.url, uniqueEmail('bearer'));
    const tokenRes = await browser.get('/api/auth/token');
    expect(tokenRes.status).toBe(200);
    const { token } = (await tokenRes.json()) as { token: string };
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number; iat: number };
    expect(payload.exp - payload.iat).toBe(900);
    const viaJwt = await fetch(`${api.url}/api/v1/users/current`, { headers: { authorization: `Bearer ${token}` } });
    expect(viaJwt.status).toBe(200);
    const forged = `${token.slice(0, -4)}AAAA`;
    expect((await fetch(`${api.url}/api/v1/users/current`, { headers: { authorization: `Bearer ${forged}` } })).status).toBe(401);

    const session = (await (await browser.get('/api/auth/get-session')).json()) as { session: { token: string } };
    const viaSessionToken = await fetch(`${api.url}/api/v1/users/current`, { headers: { authorization: `Bearer ${session.session.token}` } });
    expect(viaSessionToken.status).toBe(200);
  });
});

describe('sign-in rate limits', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi({ AUTH_RATE_LIMIT_PER_ADDRESS: '2', AUTH_RATE_LIMIT_PER_IP: '6' });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('throttles codes per address, then per IP, with RATE_LIMITED and Retry-After', async () => {
    const browser = new Browser(api.url);
    const email = uniqueEmail('flood');
    for (let i = 0; i < 2; i++) expect((await browser.post('/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' })).status).toBe(200);
    const third = await browser.post('/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' });
    expect(await errorOf(third)).toEqual({ status: 429, code: 'RATE_LIMITED', message: 'Too many attempts. Please wait and try again.' });
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await inbox(api.url, email)).length).toBe(2);

    // Those three used 3 of the per-IP budget of 6: three more to other addresses use it up.
    for (let i = 0; i < 3; i++)
      expect((await browser.post('/api/auth/email-otp/send-verification-otp', { email: uniqueEmail('other'), type: 'sign-in' })).status).toBe(200);
    const blocked = await browser.post('/api/auth/email-otp/send-verification-otp', { email: uniqueEmail('other'), type: 'sign-in' });
    expect((await errorOf(blocked)).code).toBe('RATE_LIMITED');
  });
});
