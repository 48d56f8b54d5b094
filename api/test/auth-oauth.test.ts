import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './helpers/api-server.ts';
import { Browser, signInByEmailCode, uniqueEmail } from './helpers/browser.ts';
import { startOAuthDouble, type OAuthDouble } from './helpers/oauth-provider-double.ts';
import { totpFromUri } from './helpers/totp.ts';

describe('sign-in with Twitch, Google and Facebook (against a local OAuth 2.0 double)', () => {
  let api: TestApi;
  let twitch: OAuthDouble;
  let google: OAuthDouble;
  let facebook: OAuthDouble;

  beforeAll(async () => {
    [twitch, google, facebook] = await Promise.all([startOAuthDouble('twitch'), startOAuthDouble('google'), startOAuthDouble('facebook')]);
    // Every request comes from 127.0.0.1; the per-IP limit has its own test.
    api = await startTestApi({ ...twitch.env('TWITCH'), ...google.env('GOOGLE'), ...facebook.env('FACEBOOK'), AUTH_RATE_LIMIT_PER_IP: '1000' });
  });
  afterAll(async () => {
    await api?.close();
    await Promise.all([twitch?.close(), google?.close(), facebook?.close()]);
  });

  it('offers the configured providers on the login screen', async () => {
    const methods = (await (await fetch(`${api.url}/api/v1/auth/methods`)).json()) as { oauth: unknown[] };
    expect(methods.oauth).toEqual([
      { id: 'twitch', name: 'Twitch' },
      { id: 'google', name: 'Google' },
      { id: 'facebook', name: 'Facebook' },
    ]);
  });

  /** Runs the browser side of the authorization-code flow and returns the api's final answer. */
  async function oauthSignIn(browser: Browser, provider: string): Promise<Response> {
    const start = await browser.post('/api/auth/sign-in/social', { provider, callbackURL: '/studio', errorCallbackURL: '/' });
    expect(start.status).toBe(200);
    const { url } = (await start.json()) as { url: string };
    const atProvider = await fetch(url, { redirect: 'manual' });
    expect(atProvider.status).toBe(302);
    return browser.get(atProvider.headers.get('location')!);
  }

  it.each([
    ['twitch', () => twitch],
    ['google', () => google],
    ['facebook', () => facebook],
  ] as const)('signs a new user in with %s and stores the identity', async (provider, double) => {
    const email = uniqueEmail(provider);
    double().nextIdentity = { id: `${provider}-${email}`, email, name: `${provider} streamer`, picture: `https://cdn.example.com/${provider}.png` };
    const browser = new Browser(api.url);
    const done = await oauthSignIn(browser, provider);
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/studio');
    expect(browser.cookies.has('onair.session_token')).toBe(true);

    const me = (await (await browser.get('/api/v1/users/current')).json()) as Record<string, unknown>;
    expect(me).toMatchObject({ email, displayName: `${provider} streamer`, avatar: `https://cdn.example.com/${provider}.png`, userType: 'HOST' });
    expect(me.lastLoggedInAt).toEqual(expect.any(String));
    const accounts = await api.db.account.findMany({ where: { user: { email } } });
    expect(accounts.map((a) => [a.providerId, a.accountId])).toEqual([[provider, `${provider}-${email}`]]);
    // The provider's tokens are sealed at rest: neither appears in the row as issued.
    const stored = JSON.stringify(accounts);
    for (const token of double().issuedTokens) expect(stored).not.toContain(token);
    expect(accounts[0]!.accessToken).toEqual(expect.any(String));
    // The token exchange authenticated the client and proved PKCE.
    const tokenRequest = double().tokenRequests.at(-1)!;
    expect(tokenRequest.get('code_verifier')).toBeTruthy();
  });

  it('signs the same person in again to the same account', async () => {
    const email = uniqueEmail('again');
    twitch.nextIdentity = { id: `tw-${email}`, email, name: 'again' };
    await oauthSignIn(new Browser(api.url), 'twitch');
    const second = new Browser(api.url);
    expect((await oauthSignIn(second, 'twitch')).status).toBe(302);
    expect(await api.db.user.count({ where: { email } })).toBe(1);
    expect(await api.db.account.count({ where: { accountId: `tw-${email}` } })).toBe(1);
  });

  it('links a provider with a verified e-mail to the account that already has the address', async () => {
    const email = uniqueEmail('link');
    await signInByEmailCode(api.url, email);
    google.nextIdentity = { id: `g-${email}`, email, name: 'Linked', emailVerified: true };
    const browser = new Browser(api.url);
    expect((await oauthSignIn(browser, 'google')).headers.get('location')).toBe('/studio');
    expect(await api.db.user.count({ where: { email } })).toBe(1);
    const providers = (await api.db.account.findMany({ where: { user: { email } } })).map((a) => a.providerId).sort();
    expect(providers).toContain('google');
  });

  it('does not take over an existing account from a provider that cannot vouch for the e-mail (OAUTH_ACCOUNT_NOT_LINKED)', async () => {
    const email = uniqueEmail('owned');
    await signInByEmailCode(api.url, email);
    // Facebook reports no verified e-mail and is not a trusted provider.
    facebook.nextIdentity = { id: `fb-${email}`, email, name: 'Impostor' };
    const browser = new Browser(api.url);
    const done = await oauthSignIn(browser, 'facebook');
    const location = new URL(done.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('OAUTH_ACCOUNT_NOT_LINKED');
    expect(browser.cookies.has('onair.session_token')).toBe(false);
    expect(await api.db.account.count({ where: { providerId: 'facebook', accountId: `fb-${email}` } })).toBe(0);
  });

  it('asks the user to share an e-mail when the provider sends none (OAUTH_EMAIL_MISSING)', async () => {
    twitch.nextIdentity = { id: 'tw-no-mail', email: '', name: 'Private' };
    const done = await oauthSignIn(new Browser(api.url), 'twitch');
    expect(new URL(done.headers.get('location')!).searchParams.get('error')).toBe('OAUTH_EMAIL_MISSING');
    expect(await api.db.account.count({ where: { accountId: 'tw-no-mail' } })).toBe(0);
  });

  it('stops an OAuth sign-in at the second factor when the user has MFA on', async () => {
    const email = uniqueEmail('mfa-oauth');
    const owner = await signInByEmailCode(api.url, email);
    const { totpURI } = (await (await owner.post('/api/auth/two-factor/enable', {})).json()) as { totpURI: string };
    expect((await owner.post('/api/auth/two-factor/verify-totp', { code: totpFromUri(totpURI) })).status).toBe(200);
    google.nextIdentity = { id: `g-${email}`, email, name: 'Two factor', emailVerified: true };
    const browser = new Browser(api.url);
    const done = await oauthSignIn(browser, 'google');
    expect(done.headers.get('location')).toBe(`${api.url}/login?mfa=required`);
    expect(browser.cookies.has('onair.session_token')).toBe(false);
    expect((await browser.post('/api/auth/two-factor/verify-totp', { code: totpFromUri(totpURI) })).status).toBe(200);
    expect(await (await browser.get('/api/v1/users/current')).json()).toMatchObject({ email, twoFactorEnabled: true });
  });

  it('reports a refusal at the provider as OAUTH_DENIED and creates nobody', async () => {
    const before = await api.db.user.count();
    facebook.nextIdentity = null;
    const browser = new Browser(api.url);
    const done = await oauthSignIn(browser, 'facebook');
    expect(done.status).toBe(302);
    const location = new URL(done.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('OAUTH_DENIED');
    expect(location.searchParams.get('error_description')).toBe('Sign-in was cancelled at the provider.');
    expect(browser.cookies.has('onair.session_token')).toBe(false);
    expect(await api.db.user.count()).toBe(before);
  });

  it('reports a failed code exchange as OAUTH_FAILED (a replayed callback)', async () => {
    const email = uniqueEmail('replay');
    twitch.nextIdentity = { id: `tw-${email}`, email, name: 'replay' };
    const browser = new Browser(api.url);
    const start = await browser.post('/api/auth/sign-in/social', { provider: 'twitch', callbackURL: '/studio', errorCallbackURL: '/' });
    const { url } = (await start.json()) as { url: string };
    const callback = (await fetch(url, { redirect: 'manual' })).headers.get('location')!;
    expect((await browser.get(callback)).headers.get('location')).toBe('/studio');
    const replay = await new Browser(api.url).get(callback);
    const location = new URL(replay.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('OAUTH_FAILED');
  });
});
