import type { IncomingMessage } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CurrentUser, UserSettings } from '@onair/protocol';
import { createHttpClient } from '../api/http-client.ts';
import { initialSignIn, useAppStore, useSessionStore, useToastStore } from '../stores/index.ts';
import { sendJson, startTestServer, type TestServer } from '../test/http-server.ts';
import { updateDisplayName } from './account.ts';
import { PLATFORM_LOGIN_FAILED_NOTICE, SIGNUP_DISABLED_NOTICE } from '../model/partner.ts';
import { requestSmsCode, restoreSession, submitEmailCode, submitSmsCode } from './session.ts';

const user: CurrentUser = {
  id: 'u1',
  email: 'ada@example.com',
  emailVerified: true,
  displayName: '',
  avatar: null,
  phoneNumber: null,
  twoFactorEnabled: false,
  userType: 'ADMIN',
  labels: [],
  role: 'Premium',
  resolution: { x: 1920, y: 1080 },
  createdAt: '2026-01-01T00:00:00.000Z',
  lastLoggedInAt: null,
};
const settings: UserSettings = {
  mailing: { enabled: true, subscribed: false, preferences: { tips: true }, availableGroups: [{ id: 'tips', displayName: 'Tips' }] },
};

let server: TestServer;
let signedIn: boolean;
let requests: { method: string; url: string; body: string }[];
let answers: Record<string, { status: number; body: unknown }>;

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString();
}

beforeEach(async () => {
  useSessionStore.setState(useSessionStore.getInitialState(), true);
  useAppStore.setState(useAppStore.getInitialState(), true);
  useToastStore.setState({ toasts: [] });
  signedIn = true;
  requests = [];
  answers = {};
  server = await startTestServer((req, res) => {
    void bodyOf(req).then((body) => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', body });
      const canned = answers[`${req.method} ${req.url}`];
      if (canned) return sendJson(res, canned.status, canned.body);
      // better-auth's get-session answers a signed-out browser 200 null.
      if (req.url === '/api/auth/get-session') return sendJson(res, 200, signedIn ? { session: { id: 's1' }, user: { id: user.id } } : null);
      if (!signedIn) return sendJson(res, 401, { error: { code: 'UNAUTHENTICATED', message: 'You need to sign in first.' } });
      if (req.url === '/api/v1/users/current') return sendJson(res, 200, user);
      if (req.url === '/api/v1/users/settings') return sendJson(res, 200, settings);
      sendJson(res, 404, { error: { code: 'NOT_FOUND', message: 'Nothing was found at this address.' } });
    });
  });
});
afterEach(async () => {
  await server.close();
});

describe('restoreSession (spec §4)', () => {
  it('restores a stored session: logged in, ready, user type and canvas from the role', async () => {
    await restoreSession(createHttpClient({ baseUrl: server.baseUrl }), { search: '', pathname: '/', hash: '' }, () => {
      throw new Error('the URL has nothing to clean');
    });
    const state = useSessionStore.getState();
    expect(state).toMatchObject({ ready: true, loggedIn: true, user, settings });
    expect(useAppStore.getState()).toMatchObject({ userType: 2, canvas: { width: 1920, height: 1080 } });
  });

  it('marks the session ready and logged out when the stored session fails', async () => {
    signedIn = false;
    await restoreSession(createHttpClient({ baseUrl: server.baseUrl }), { search: '', pathname: '/', hash: '' });
    expect(useSessionStore.getState()).toMatchObject({ ready: true, loggedIn: false, user: null });
    // Issue 52: signed out, only the session question is asked; nothing answers 401.
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /api/auth/get-session']);
    expect(useAppStore.getState().canvas).toEqual({ width: 1280, height: 720 });
  });

  it('shows a sign-in redirect error and removes it from the URL, keeping other parameters', async () => {
    signedIn = false;
    const replaced: string[] = [];
    const search = '?error=LINK_INVALID&error_description=This+link+is+used&keep=1';
    await restoreSession(createHttpClient({ baseUrl: server.baseUrl }), { search, pathname: '/login', hash: '' }, (url) => replaced.push(url));
    expect(useSessionStore.getState().signIn).toMatchObject({ step: 'email', error: 'This link is used' });
    expect(replaced).toEqual(['/login?keep=1']);
  });

  it("words a platform's failed sign-in as partner spec §8's platform login failure, and a refused signup as the waitlist's", async () => {
    signedIn = false;
    await restoreSession(createHttpClient({ baseUrl: server.baseUrl }), { search: '?error=access_denied', pathname: '/login', hash: '' }, () => {});
    expect(useSessionStore.getState().signIn).toMatchObject({ step: 'email', error: PLATFORM_LOGIN_FAILED_NOTICE, errorCode: 'access_denied' });
    await restoreSession(createHttpClient({ baseUrl: server.baseUrl }), { search: '?error=signup_disabled', pathname: '/login', hash: '' }, () => {});
    expect(useSessionStore.getState().signIn).toMatchObject({ error: SIGNUP_DISABLED_NOTICE, errorCode: 'SIGNUP_DISABLED' });
  });

  it('goes to the second-factor step when the api says MFA is required', async () => {
    signedIn = false;
    await restoreSession(createHttpClient({ baseUrl: server.baseUrl }), { search: '?mfa=required', pathname: '/', hash: '' }, () => {});
    expect(useSessionStore.getState().signIn.step).toBe('mfa');
  });
});

describe('sign-in steps', () => {
  it('stops at the second factor when the code sign-in answers twoFactorRedirect, without loading the account', async () => {
    signedIn = false;
    answers['POST /api/auth/sign-in/email-otp'] = { status: 200, body: { twoFactorRedirect: true, twoFactorMethods: ['totp'] } };
    useSessionStore.setState({ signIn: { ...initialSignIn, step: 'code', email: 'ada@example.com' } });
    await submitEmailCode(' 123456 ', createHttpClient({ baseUrl: server.baseUrl }));
    expect(useSessionStore.getState()).toMatchObject({ loggedIn: false, signIn: { step: 'mfa', pending: false, error: null } });
    expect(JSON.parse(requests[0]!.body)).toEqual({ email: 'ada@example.com', otp: '123456' });
  });

  it("says 'Authentication failed: No valid token received from server' when the answer has no token", async () => {
    answers['POST /api/auth/sign-in/email-otp'] = { status: 200, body: { user: { id: 'u1' } } };
    useSessionStore.setState({ signIn: { ...initialSignIn, step: 'code', email: 'ada@example.com' } });
    await submitEmailCode('123456', createHttpClient({ baseUrl: server.baseUrl }));
    expect(useSessionStore.getState()).toMatchObject({ loggedIn: false, signIn: { error: 'Authentication failed: No valid token received from server' } });
  });

  it('shows the api catalogue message of a wrong code', async () => {
    answers['POST /api/auth/sign-in/email-otp'] = {
      status: 400,
      body: { error: { code: 'CODE_INVALID', message: 'That code is not right. Check it and try again.' } },
    };
    useSessionStore.setState({ signIn: { ...initialSignIn, step: 'code', email: 'ada@example.com' } });
    await submitEmailCode('000000', createHttpClient({ baseUrl: server.baseUrl }));
    expect(useSessionStore.getState().signIn).toMatchObject({ step: 'code', error: 'That code is not right. Check it and try again.' });
  });
});

describe('SMS sign-in', () => {
  it('sends the number without spaces or dashes, then signs in with the texted code', async () => {
    answers['POST /api/auth/phone-number/send-otp'] = { status: 200, body: { message: 'code sent' } };
    answers['POST /api/auth/phone-number/verify'] = { status: 200, body: { status: true, token: 'session-token', user: { id: 'u1' } } };
    const client = createHttpClient({ baseUrl: server.baseUrl });
    await requestSmsCode('+1 555-123 4567', client);
    expect(useSessionStore.getState().signIn).toMatchObject({ step: 'phone-code', phoneNumber: '+15551234567', error: null });
    await submitSmsCode('654321', client);
    expect(useSessionStore.getState()).toMatchObject({ loggedIn: true, user });
    expect(requests.filter((r) => r.method === 'POST').map((r) => JSON.parse(r.body) as unknown)).toEqual([
      { phoneNumber: '+15551234567' },
      { phoneNumber: '+15551234567', code: '654321' },
    ]);
  });
});

describe('updateDisplayName (spec §8 words)', () => {
  it("toasts 'Your name has been updated' and stores the new user", async () => {
    answers['PATCH /api/v1/users/current'] = { status: 200, body: { ...user, displayName: 'Ada' } };
    expect(await updateDisplayName('Ada', createHttpClient({ baseUrl: server.baseUrl }))).toBe(true);
    expect(useSessionStore.getState().user?.displayName).toBe('Ada');
    expect(useToastStore.getState().toasts.map((t) => t.title)).toEqual(['Your name has been updated']);
  });

  it("toasts 'Failed to update your name' when the api refuses", async () => {
    answers['PATCH /api/v1/users/current'] = { status: 400, body: { error: { code: 'VALIDATION_FAILED', message: 'no' } } };
    expect(await updateDisplayName('Ada', createHttpClient({ baseUrl: server.baseUrl }))).toBe(false);
    expect(useToastStore.getState().toasts.map((t) => t.title)).toEqual(['Failed to update your name']);
  });
});
