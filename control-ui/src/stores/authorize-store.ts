import { create } from 'zustand';
import type { Consent } from '@onair/protocol';

/** A refusal as the authorize pages show it: the words and the error code (partner spec §8). */
export interface Refusal {
  message: string;
  code: string;
}

/** The OAuth authorize page: what the api says of the application's request, once read. */
export interface AuthorizeState {
  answer: { consent: Consent } | { refusal: Refusal } | null;
}

export const initialAuthorizeState = (): AuthorizeState => ({ answer: null });

export function createAuthorizeStore() {
  return create<AuthorizeState>()(() => initialAuthorizeState());
}
