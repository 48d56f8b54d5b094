import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Application, Grant } from '@onair/protocol';
import { personalInfo } from './helpers/partner.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let admin: TestUser;
let creator: TestUser;
let app: Application;
const REDIRECT = 'https://deck.example.com/callback';

beforeAll(async () => {
  api = await startStudioApi();
  admin = await createTestUser(api);
  await api.db.user.update({ where: { id: admin.id }, data: { userType: 'ADMIN' } });
  creator = await createTestUser(api);
  await call(api, creator, 'POST', '/api/v1/partner/account/onboarding', personalInfo(`Creator_${creator.id.slice(0, 6)}`));
  app = (
    await call(api, admin, 'POST', '/api/v1/admin/applications', {
      name: 'Stream Deck helper',
      redirectUris: [REDIRECT],
      scopes: ['profile:read', 'channel:read'],
    })
  ).body as Application;
});
afterAll(async () => {
  await api?.close();
});

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

function authorizeQuery(overrides: Record<string, string | undefined> = {}, challenge = pkce().challenge): string {
  const params = {
    client_id: app.clientId,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'profile:read',
    state: 'xyz',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...overrides,
  };
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) search.set(k, v);
  return search.toString();
}

async function token(form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${api.url}/api/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function codeFor(user: TestUser, challenge: string): Promise<string> {
  const params = Object.fromEntries(new URLSearchParams(authorizeQuery({}, challenge)));
  const answer = await call(api, user, 'POST', '/api/v1/partner/oauth/authorize', { ...params, allowed: true });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const to = new URL((answer.body as { redirectTo: string }).redirectTo);
  expect(to.origin + to.pathname).toBe(REDIRECT);
  expect(to.searchParams.get('state')).toBe('xyz');
  return to.searchParams.get('code')!;
}

const userinfo = (accessToken: string) => fetch(`${api.url}/api/oauth/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });

describe('registered applications', () => {
  it('are registered by administrators only', async () => {
    expect(app).toMatchObject({ name: 'Stream Deck helper', clientId: expect.stringMatching(/^onair_/), scopes: ['profile:read', 'channel:read'] });
    expect((await call(api, creator, 'POST', '/api/v1/admin/applications', { name: 'Mine', redirectUris: [REDIRECT], scopes: ['profile:read'] })).status).toBe(
      403,
    );
    expect((await call(api, creator, 'GET', '/api/v1/admin/applications')).status).toBe(403);
  });
});

describe('OAuth authorize (authorization code with PKCE)', () => {
  it('says what is wrong with a bad request in the words of spec §8', async () => {
    const check = (q: string) => call(api, creator, 'GET', `/api/v1/partner/oauth/authorize?${q}`);
    expect(await check(authorizeQuery())).toMatchObject({
      status: 200,
      body: { application: { name: 'Stream Deck helper' }, scopes: [{ id: 'profile:read', label: 'See your username and profile' }] },
    });
    expect(await check(authorizeQuery({ client_id: 'nobody' }))).toMatchObject({ status: 400, body: { error: { code: 'OAUTH_UNKNOWN_CLIENT' } } });
    expect(await check(authorizeQuery({ redirect_uri: 'https://evil.example/callback' }))).toMatchObject({
      status: 400,
      body: { error: { code: 'OAUTH_REDIRECT_URI_INVALID' } },
    });
    expect(await check(authorizeQuery({ redirect_uri: undefined }))).toMatchObject({ status: 400, body: { error: { code: 'OAUTH_REDIRECT_URI_INVALID' } } });
    // Spec §8 "code or token": token (the implicit grant) is refused, and the refusal says why (README, spec notes).
    for (const responseType of ['token', 'id_token', undefined]) {
      expect(await check(authorizeQuery({ response_type: responseType }))).toMatchObject({
        status: 400,
        body: {
          error: {
            code: 'OAUTH_RESPONSE_TYPE_INVALID',
            message: expect.stringMatching(/^The response type must be code or token, and OnAir takes code only: token \(the implicit flow\)/),
          },
        },
      });
    }
    expect(await check(authorizeQuery({ scope: 'profile:read admin:everything' }))).toMatchObject({
      status: 400,
      body: { error: { code: 'OAUTH_SCOPE_INVALID' } },
    });
    expect(await check(authorizeQuery({ code_challenge: undefined }))).toMatchObject({ status: 400, body: { error: { code: 'OAUTH_PKCE_REQUIRED' } } });
  });

  it('exchanges a code once, with the right verifier and redirect_uri, for a token that stops working when revoked', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(creator, challenge);
    const exchange = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: app.clientId, code_verifier: verifier };

    expect(await token({ ...exchange, client_id: 'nobody' })).toMatchObject({ status: 400, body: { error: 'invalid_client' } });
    const granted = await token(exchange);
    expect(granted).toMatchObject({
      status: 200,
      body: { token_type: 'Bearer', scope: 'profile:read', access_token: expect.any(String), expires_in: expect.any(Number) },
    });
    expect(granted.body.expires_in as number).toBeLessThanOrEqual(3600);
    // Used once: the same code again is refused.
    expect(await token(exchange)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // Nothing secret is kept in clear.
    const accessToken = granted.body.access_token as string;
    expect(await api.db.oAuthAccessToken.count({ where: { tokenHash: accessToken } })).toBe(0);
    expect(await api.db.oAuthAuthorizationCode.count({ where: { codeHash: code } })).toBe(0);

    const me = await userinfo(accessToken);
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({ sub: creator.id, username: `Creator_${creator.id.slice(0, 6)}`, scope: 'profile:read' });

    const grants = ((await call(api, creator, 'GET', '/api/v1/partner/applications')).body as { grants: Grant[] }).grants;
    expect(grants).toEqual([expect.objectContaining({ application: { name: 'Stream Deck helper', clientId: app.clientId }, lastUsedAt: expect.any(String) })]);
    expect((await call(api, admin, 'DELETE', `/api/v1/partner/applications/${grants[0]!.id}`)).status).toBe(404);
    expect((await call(api, creator, 'DELETE', `/api/v1/partner/applications/${grants[0]!.id}`)).status).toBe(204);
    expect((await userinfo(accessToken)).status).toBe(401);
  });

  it('refuses a mismatched redirect_uri, and the code is burnt by the failed try', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(creator, challenge);
    const exchange = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: app.clientId, code_verifier: verifier };
    expect(await token({ ...exchange, redirect_uri: 'https://deck.example.com/other' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: 'Invalid request: `redirect_uri` is invalid' },
    });
    expect(await token(exchange)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('refuses a wrong verifier and an expired code', async () => {
    const first = pkce();
    const code = await codeFor(creator, first.challenge);
    expect(
      await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: app.clientId, code_verifier: pkce().verifier }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    const second = pkce();
    const late = await codeFor(creator, second.challenge);
    // Five minutes have passed: the window is moved past in the store.
    await api.db.oAuthAuthorizationCode.updateMany({ data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(
      await token({ grant_type: 'authorization_code', code: late, redirect_uri: REDIRECT, client_id: app.clientId, code_verifier: second.verifier }),
    ).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Invalid grant: authorization code has expired' },
    });
  });

  it('sends a denial back to the application as access_denied', async () => {
    const params = Object.fromEntries(new URLSearchParams(authorizeQuery()));
    const answer = await call(api, creator, 'POST', '/api/v1/partner/oauth/authorize', { ...params, allowed: false });
    expect((answer.body as { redirectTo: string }).redirectTo).toBe(`${REDIRECT}?error=access_denied&state=xyz`);
  });
});

describe('short-code authorize (device authorization)', () => {
  async function startDevice(): Promise<{ device_code: string; user_code: string; verification_uri_complete: string; interval: number }> {
    const res = await fetch(`${api.url}/api/oauth/device_authorization`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `client_id=${app.clientId}&scope=channel:read`,
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { device_code: string; user_code: string; verification_uri_complete: string; interval: number };
  }
  const poll = (deviceCode: string) => token({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: deviceCode, client_id: app.clientId });

  it('issues a token once the creator enters the 6-character code and allows', async () => {
    const device = await startDevice();
    expect(device.user_code).toMatch(/^[A-Z2-9]{6}$/);
    expect(device.verification_uri_complete).toBe(`${api.url}/partner/device?code=${device.user_code}`);
    expect(await poll(device.device_code)).toMatchObject({ status: 400, body: { error: 'authorization_pending' } });
    expect(await poll(device.device_code)).toMatchObject({ status: 400, body: { error: 'slow_down' } });

    const typed = `${device.user_code.slice(0, 3).toLowerCase()}-${device.user_code.slice(3)}`;
    expect(await call(api, creator, 'POST', '/api/v1/partner/oauth/device/lookup', { userCode: typed })).toMatchObject({
      status: 200,
      body: { application: { name: 'Stream Deck helper' }, scopes: [{ id: 'channel:read' }] },
    });
    expect(await call(api, creator, 'POST', '/api/v1/partner/oauth/device/answer', { userCode: typed, allowed: true })).toMatchObject({
      status: 200,
      body: { allowed: true },
    });
    const granted = await poll(device.device_code);
    expect(granted).toMatchObject({ status: 200, body: { token_type: 'Bearer', scope: 'channel:read' } });
    // The device's token may read the channel, not the profile: username is withheld.
    const me = await userinfo(granted.body.access_token as string);
    expect(await me.json()).toEqual({ sub: creator.id, username: null, scope: 'channel:read' });
    // Consumed: the device code gives one token.
    expect(await poll(device.device_code)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // An answered code cannot be answered again.
    expect((await call(api, creator, 'POST', '/api/v1/partner/oauth/device/answer', { userCode: typed, allowed: true })).status).toBe(404);
  });

  it('tells the device when the creator denies', async () => {
    const device = await startDevice();
    await call(api, creator, 'POST', '/api/v1/partner/oauth/device/answer', { userCode: device.user_code, allowed: false });
    expect(await poll(device.device_code)).toMatchObject({ status: 400, body: { error: 'access_denied' } });
  });

  it('rate-limits short codes tried 100 times, and then refuses even the right one', async () => {
    const guesser = await createTestUser(api);
    const device = await startDevice();
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) {
      const wrong = device.user_code === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA';
      statuses.push((await call(api, guesser, 'POST', '/api/v1/partner/oauth/device/lookup', { userCode: wrong })).status);
    }
    const firstLimited = statuses.indexOf(429);
    expect(firstLimited).toBe(10);
    expect(statuses.slice(0, 10).every((s) => s === 404)).toBe(true);
    expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
    const right = await call(api, guesser, 'POST', '/api/v1/partner/oauth/device/lookup', { userCode: device.user_code });
    expect(right).toMatchObject({
      status: 429,
      body: { error: { code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many codes tried\. Wait \d+ minutes? and try again\.$/) } },
    });
  });

  it('refuses an unknown client', async () => {
    const res = await fetch(`${api.url}/api/oauth/device_authorization`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'client_id=nobody',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('OAUTH_UNKNOWN_CLIENT');
  });
});
