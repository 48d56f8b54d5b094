import {
  answerAuthorizeRequestEndpoint,
  answerShortCodeEndpoint,
  checkAuthorizeRequestEndpoint,
  listGrantsEndpoint,
  lookupShortCodeEndpoint,
  revokeGrantEndpoint,
  type AuthorizeRequest,
  type Consent,
  type Grant,
} from '@onair/protocol';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { initialAuthorizeState, useAuthorizeStore, usePartnerSettingsStore, type Refusal } from '../stores/index.ts';
import { apiErrorOf, messageOf } from './api-errors.ts';
import { showToast } from './toasts.ts';

export type { Refusal } from '../stores/index.ts';
const refusalOf = (err: unknown): Refusal => ({ message: messageOf(err), code: apiErrorOf(err)?.code ?? 'UNKNOWN' });

export async function checkAuthorizeRequest(
  request: AuthorizeRequest,
  client: HttpClient = httpClient,
): Promise<{ ok: true; consent: Consent } | { ok: false; refusal: Refusal }> {
  try {
    return { ok: true, consent: await call(checkAuthorizeRequestEndpoint, { query: request }, client) };
  } catch (err) {
    return { ok: false, refusal: refusalOf(err) };
  }
}

/** The authorize page opens (or its query changes): the api's word on the request, in the authorize store. */
export async function openAuthorizeRequest(request: AuthorizeRequest, client: HttpClient = httpClient): Promise<void> {
  const answer = await checkAuthorizeRequest(request, client);
  useAuthorizeStore.setState({ answer: answer.ok ? { consent: answer.consent } : { refusal: answer.refusal } });
}

export function closeAuthorizeRequest(): void {
  useAuthorizeStore.setState(initialAuthorizeState());
}

/** Allow or deny; the browser then goes back to the application. A refusal replaces the consent on the page. */
export async function answerAuthorizeRequest(request: AuthorizeRequest, allowed: boolean, client: HttpClient = httpClient): Promise<Refusal | null> {
  try {
    const { redirectTo } = await call(answerAuthorizeRequestEndpoint, { body: { ...request, allowed } }, client);
    window.location.assign(redirectTo);
    return null;
  } catch (err) {
    const refusal = refusalOf(err);
    useAuthorizeStore.setState({ answer: { refusal } });
    return refusal;
  }
}

export async function lookupShortCode(
  userCode: string,
  client: HttpClient = httpClient,
): Promise<{ ok: true; consent: Omit<Consent, 'redirectUri'> } | { ok: false; refusal: Refusal }> {
  try {
    return { ok: true, consent: await call(lookupShortCodeEndpoint, { body: { userCode } }, client) };
  } catch (err) {
    return { ok: false, refusal: refusalOf(err) };
  }
}

export async function answerShortCode(userCode: string, allowed: boolean, client: HttpClient = httpClient): Promise<Refusal | null> {
  try {
    await call(answerShortCodeEndpoint, { body: { userCode, allowed } }, client);
    return null;
  } catch (err) {
    return refusalOf(err);
  }
}

/** Settings › Manage Applications opens: the grants are read afresh. */
export async function openGrants(client: HttpClient = httpClient): Promise<void> {
  usePartnerSettingsStore.setState({ grants: null, grantsFailed: false });
  await refreshGrants(client);
}

/** Reads the grants again (after a revoke); a failure is kept until the section opens again. */
export async function refreshGrants(client: HttpClient = httpClient): Promise<void> {
  try {
    usePartnerSettingsStore.setState({ grants: (await call(listGrantsEndpoint, {}, client)).grants });
  } catch {
    usePartnerSettingsStore.setState({ grantsFailed: true });
  }
}

export async function revokeGrant(grant: Grant, client: HttpClient = httpClient): Promise<void> {
  try {
    await call(revokeGrantEndpoint, { params: { grantId: grant.id } }, client);
    showToast({ kind: 'success', title: `${grant.application.name} no longer has access` });
  } catch (err) {
    showToast({ kind: 'error', title: 'Failed to revoke the application', description: messageOf(err) });
  }
  await refreshGrants(client);
}
