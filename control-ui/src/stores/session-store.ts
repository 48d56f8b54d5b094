import { create } from 'zustand';
import type { CurrentUser, SignInMethods, UserSettings } from '@onair/protocol';

/** Where the sign-in screen is: e-mail, then a code, a sent link, or the second factor; or the SMS path. */
export type SignInStep = 'email' | 'code' | 'link-sent' | 'phone' | 'phone-code' | 'mfa';

export interface SignInState {
  step: SignInStep;
  email: string;
  phoneNumber: string;
  pending: boolean;
  /** The sentence to show under the form (the api's catalogue message), or null. */
  error: string | null;
  /** The error's code (the api's, or the `error` a sign-in redirect came back with), or null. */
  errorCode: string | null;
  /** Where a completed sign-in goes (a path of this app; `?next=` of the sign-in screen). */
  returnTo: string;
}

export interface SessionState {
  /** Spec §4: the user starts not logged in and not ready; ready once the stored session was tried. */
  ready: boolean;
  loggedIn: boolean;
  user: CurrentUser | null;
  settings: UserSettings | null;
  /** What this installation offers on the sign-in screen (null until loaded). */
  methods: SignInMethods | null;
  signIn: SignInState;
  /** Partner spec §4: the signed-in account is pending deletion; only reactivation (or signing out) is offered. */
  pendingDeletion: boolean;
}

export const initialSignIn: SignInState = { step: 'email', email: '', phoneNumber: '', pending: false, error: null, errorCode: null, returnTo: '/' };

export function initialSessionState(): SessionState {
  return { ready: false, loggedIn: false, user: null, settings: null, methods: null, signIn: { ...initialSignIn }, pendingDeletion: false };
}

export function createSessionStore() {
  return create<SessionState>()(() => initialSessionState());
}
