import {
  authAckSchema,
  authRoutes,
  authSessionAnswerSchema,
  getCurrentUserEndpoint,
  getSignInMethodsEndpoint,
  joinWaitlistEndpoint,
  getUserSettingsEndpoint,
  oauthStartAnswerSchema,
  signInAnswerSchema,
  userTypeCodes,
  type CurrentUser,
  type OAuthProviderId,
} from '@onair/protocol';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { DEFAULT_CANVAS, initialSignIn, useAppStore, useSessionStore, type SignInState } from '../stores/index.ts';
import { PLATFORM_LOGIN_FAILED_NOTICE, partnerSignInWords, safeReturnPath, SIGNUP_DISABLED_NOTICE } from '../model/partner.ts';
import { apiErrorOf, messageOf } from './api-errors.ts';

function setSignIn(patch: Partial<SignInState>): void {
  useSessionStore.setState((state) => ({ signIn: { ...state.signIn, ...patch } }));
}

/** Spec §4 step 3: a signed-in user sets the user type and the canvas from the role's resolution. */
function applyUser(user: CurrentUser): void {
  useAppStore.setState({ userType: userTypeCodes[user.userType] as 0 | 1 | 2, canvas: { width: user.resolution.x, height: user.resolution.y } });
}

/** Loads the signed-in user and their settings; throws when there is no valid session. */
export async function loadAccount(client: HttpClient = httpClient): Promise<CurrentUser> {
  const [user, settings] = await Promise.all([call(getCurrentUserEndpoint, {}, client), call(getUserSettingsEndpoint, {}, client)]);
  useSessionStore.setState((state) => ({ loggedIn: true, user, settings, signIn: { ...initialSignIn, returnTo: state.signIn.returnTo } }));
  applyUser(user);
  return user;
}

/** Forgets everything about the signed-in user on this page (spec §4 step 5). */
function clearLocalSession(): void {
  useSessionStore.setState({ loggedIn: false, user: null, settings: null });
  useAppStore.setState({ userType: useAppStore.getInitialState().userType, canvas: { ...DEFAULT_CANVAS } });
}

export async function loadSignInMethods(client: HttpClient = httpClient): Promise<void> {
  try {
    const methods = await call(getSignInMethodsEndpoint, {}, client);
    useSessionStore.setState({ methods });
  } catch {
    // Without the list the screen still offers the e-mail code, which every installation has.
  }
}

/**
 * Whether the browser holds a session, asked of the one route that answers a signed-out visitor with
 * 200 (null): the account's own routes answer 401, which a signed-out landing or guest page should
 * never produce (issue 52). When the question itself fails, the account routes are asked anyway.
 */
async function hasSession(client: HttpClient): Promise<boolean> {
  try {
    return (await client.getJson(authRoutes.getSession, { response: authSessionAnswerSchema })) !== null;
  } catch {
    return true;
  }
}

/**
 * Spec §4 on load: try the stored session (the cookie); read what a sign-in redirect left in the
 * query string (an error, or "second factor needed"); then drop those parameters from the URL
 * and mark the session ready, whatever happened.
 */
export async function restoreSession(
  client: HttpClient = httpClient,
  location: Pick<Location, 'search' | 'pathname' | 'hash'> = window.location,
  replaceUrl: (url: string) => void = (url) => window.history.replaceState(window.history.state, '', url),
): Promise<void> {
  const params = new URLSearchParams(location.search);
  if (await hasSession(client)) {
    try {
      await loadAccount(client);
    } catch (err) {
      clearLocalSession();
      if (apiErrorOf(err)?.code === 'ACCOUNT_PENDING_DELETION') useSessionStore.setState({ pendingDeletion: true });
    }
  } else {
    clearLocalSession();
  }
  // A platform's sign-in came back without a session (partner spec §8 'platform login failure'), or
  // found no account while new ones join the waitlist.
  const failed = params.get('error');
  if (failed === 'signup_disabled') setSignIn({ error: SIGNUP_DISABLED_NOTICE, errorCode: 'SIGNUP_DISABLED', step: 'email' });
  else if (failed) setSignIn({ error: params.get('error_description') ?? PLATFORM_LOGIN_FAILED_NOTICE, errorCode: failed, step: 'email' });
  if (params.get('mfa') === 'required' && !useSessionStore.getState().loggedIn) setSignIn({ step: 'mfa', error: null });
  if (params.has('error') || params.has('mfa')) {
    for (const key of ['error', 'error_description', 'mfa']) params.delete(key);
    const query = params.toString();
    replaceUrl(`${location.pathname}${query ? `?${query}` : ''}${location.hash}`);
  }
  useSessionStore.setState({ ready: true });
}

async function step(run: () => Promise<void>): Promise<void> {
  setSignIn({ pending: true, error: null, errorCode: null });
  try {
    await run();
  } catch (err) {
    // Signed in to an account pending deletion: the sign-in screen hands over to reactivation.
    if (apiErrorOf(err)?.code === 'ACCOUNT_PENDING_DELETION') {
      useSessionStore.setState({ pendingDeletion: true });
      return;
    }
    // The partner area words sign-in outcomes as its own spec does (§8 'Email login').
    const partner = useSessionStore.getState().signIn.returnTo.startsWith('/partner');
    const code = apiErrorOf(err)?.code ?? null;
    setSignIn({ error: partner ? partnerSignInWords(code, messageOf(err)) : messageOf(err), errorCode: code });
  } finally {
    setSignIn({ pending: false });
  }
}

export function requestEmailCode(email: string, client: HttpClient = httpClient): Promise<void> {
  return step(async () => {
    await client.sendJson('POST', authRoutes.sendEmailCode, { email: email.trim(), type: 'sign-in' }, { response: authAckSchema });
    setSignIn({ step: 'code', email: email.trim() });
  });
}

export function requestMagicLink(email: string, client: HttpClient = httpClient): Promise<void> {
  return step(async () => {
    const { returnTo } = useSessionStore.getState().signIn;
    await client.sendJson(
      'POST',
      authRoutes.sendMagicLink,
      { email: email.trim(), callbackURL: returnTo, errorCallbackURL: loginPathFor(returnTo) },
      { response: authAckSchema },
    );
    setSignIn({ step: 'link-sent', email: email.trim() });
  });
}

export function submitEmailCode(code: string, client: HttpClient = httpClient): Promise<void> {
  return step(async () => {
    const { email } = useSessionStore.getState().signIn;
    const answer = await client.sendJson('POST', authRoutes.signInWithEmailCode, { email, otp: code.trim() }, { response: signInAnswerSchema });
    if (answer.twoFactorRedirect) {
      setSignIn({ step: 'mfa' });
      return;
    }
    // Spec §8: a sign-in answer without a session token is a failed login, whatever its status.
    if (!answer.token) throw new Error('Authentication failed: No valid token received from server');
    await loadAccount(client);
  });
}

/** Spec §4 SMS OTP: a code by text message to an account's verified phone number. */
export function requestSmsCode(phoneNumber: string, client: HttpClient = httpClient): Promise<void> {
  return step(async () => {
    const number = phoneNumber.replace(/[\s()-]/g, '');
    await client.sendJson('POST', authRoutes.sendSmsCode, { phoneNumber: number }, { response: authAckSchema });
    setSignIn({ step: 'phone-code', phoneNumber: number });
  });
}

export function submitSmsCode(code: string, client: HttpClient = httpClient): Promise<void> {
  return step(async () => {
    const { phoneNumber } = useSessionStore.getState().signIn;
    const answer = await client.sendJson('POST', authRoutes.verifySmsCode, { phoneNumber, code: code.trim() }, { response: signInAnswerSchema });
    if (answer.twoFactorRedirect) {
      setSignIn({ step: 'mfa' });
      return;
    }
    if (!answer.token) throw new Error('Authentication failed: No valid token received from server');
    await loadAccount(client);
  });
}

/** Switches the sign-in screen between the e-mail and the text-message paths. */
export function chooseSignInPath(path: 'email' | 'phone'): void {
  setSignIn({ step: path, error: null });
}

/** The second factor: a code from the authenticator app, or one of the recovery codes. */
export function submitSecondFactor(code: string, kind: 'totp' | 'recovery', client: HttpClient = httpClient): Promise<void> {
  return step(async () => {
    const path = kind === 'totp' ? authRoutes.verifyTotp : authRoutes.verifyRecoveryCode;
    await client.sendJson('POST', path, { code: code.trim() }, { response: authAckSchema });
    await loadAccount(client);
  });
}

/** Leaves for the provider's consent page; the api brings the browser back to `/`. */
export function startOAuth(provider: OAuthProviderId, client: HttpClient = httpClient): Promise<void> {
  return step(async () => {
    const { returnTo } = useSessionStore.getState().signIn;
    const { url } = await client.sendJson(
      'POST',
      authRoutes.startOAuth,
      { provider, callbackURL: returnTo, errorCallbackURL: loginPathFor(returnTo) },
      { response: oauthStartAnswerSchema },
    );
    window.location.assign(url);
  });
}

/** The sign-in screen that brings the browser back to `returnTo`. */
function loginPathFor(returnTo: string): string {
  return returnTo === '/' ? '/login' : `/login?next=${encodeURIComponent(returnTo)}`;
}

/** The sign-in screen's `?next=`: where a completed sign-in goes (only a path of this app). */
export function setSignInReturn(next: string | null): void {
  setSignIn({ returnTo: safeReturnPath(next) });
}

export function restartSignIn(): void {
  useSessionStore.setState((state) => ({ signIn: { ...initialSignIn, returnTo: state.signIn.returnTo } }));
}

/** Spec §4 step 5: logout clears everything; the local state is cleared even if the api is unreachable. */
export async function signOut(client: HttpClient = httpClient): Promise<void> {
  try {
    await client.sendJson('POST', authRoutes.signOut, {}, { response: authAckSchema });
  } catch {
    // The cookie may already be gone (deleted account, expired session): nothing left to end.
  }
  clearLocalSession();
  useSessionStore.setState({ pendingDeletion: false });
  restartSignIn();
}

/** Partner spec §2 Waitlist: leaves the address while new accounts wait; the same answer whether or not it was there. */
export async function joinWaitlist(email: string, client: HttpClient = httpClient): Promise<boolean> {
  let joined = false;
  await step(async () => {
    await call(joinWaitlistEndpoint, { body: { email } }, client);
    setSignIn({ email: email.trim() });
    joined = true;
  });
  return joined;
}
