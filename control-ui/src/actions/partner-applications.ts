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
import { httpClient, type HttpClient, type ResponseSchema } from '../api/http-client.ts';
import { apiErrorOf, messageOf } from './api-errors.ts';
import { showToast } from './toasts.ts';

const noContent: ResponseSchema<null> = {
  safeParse: (data) => (data === undefined || data === null ? { success: true, data: null } : { success: false, error: { message: 'expected no content' } }),
};

/** A refusal as the authorize pages show it: the words and the error code (partner spec §8). */
export interface Refusal {
  message: string;
  code: string;
}
const refusalOf = (err: unknown): Refusal => ({ message: messageOf(err), code: apiErrorOf(err)?.code ?? 'UNKNOWN' });

export async function checkAuthorizeRequest(request: AuthorizeRequest, client: HttpClient = httpClient): Promise<{ ok: true; consent: Consent } | { ok: false; refusal: Refusal }> {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(request)) if (typeof value === 'string') query.set(key, value);
  try {
    return { ok: true, consent: await client.getJson(`${checkAuthorizeRequestEndpoint.path}?${query.toString()}`, { response: checkAuthorizeRequestEndpoint.response }) };
  } catch (err) {
    return { ok: false, refusal: refusalOf(err) };
  }
}

/** Allow or deny; the browser then goes back to the application. */
export async function answerAuthorizeRequest(request: AuthorizeRequest, allowed: boolean, client: HttpClient = httpClient): Promise<Refusal | null> {
  try {
    const { redirectTo } = await client.sendJson('POST', answerAuthorizeRequestEndpoint.path, { ...request, allowed }, { response: answerAuthorizeRequestEndpoint.response });
    window.location.assign(redirectTo);
    return null;
  } catch (err) {
    return refusalOf(err);
  }
}

export async function lookupShortCode(userCode: string, client: HttpClient = httpClient): Promise<{ ok: true; consent: Omit<Consent, 'redirectUri'> } | { ok: false; refusal: Refusal }> {
  try {
    return { ok: true, consent: await client.sendJson('POST', lookupShortCodeEndpoint.path, { userCode }, { response: lookupShortCodeEndpoint.response }) };
  } catch (err) {
    return { ok: false, refusal: refusalOf(err) };
  }
}

export async function answerShortCode(userCode: string, allowed: boolean, client: HttpClient = httpClient): Promise<Refusal | null> {
  try {
    await client.sendJson('POST', answerShortCodeEndpoint.path, { userCode, allowed }, { response: answerShortCodeEndpoint.response });
    return null;
  } catch (err) {
    return refusalOf(err);
  }
}

export async function loadGrants(client: HttpClient = httpClient): Promise<Grant[] | null> {
  try {
    return (await client.getJson(listGrantsEndpoint.path, { response: listGrantsEndpoint.response })).grants;
  } catch {
    return null;
  }
}

export async function revokeGrant(grant: Grant, client: HttpClient = httpClient): Promise<void> {
  try {
    await client.sendJson('DELETE', revokeGrantEndpoint.path.replace(':grantId', encodeURIComponent(grant.id)), undefined, { response: noContent });
    showToast({ kind: 'success', title: `${grant.application.name} no longer has access` });
  } catch (err) {
    showToast({ kind: 'error', title: 'Failed to revoke the application', description: messageOf(err) });
  }
}
