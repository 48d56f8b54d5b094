import { getAccountDeletionEndpoint, reactivateAccountEndpoint, requestAccountDeletionEndpoint, type AccountDeletionStatus } from '@onair/protocol';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { initialPartnerState, usePartnerStore, useSessionStore } from '../stores/index.ts';
import { messageOf } from './api-errors.ts';
import { loadAccount, signOut } from './session.ts';

export async function loadDeletionStatus(client: HttpClient = httpClient): Promise<AccountDeletionStatus | null> {
  try {
    return await client.getJson(getAccountDeletionEndpoint.path, { response: getAccountDeletionEndpoint.response });
  } catch {
    return null;
  }
}

/** Partner spec §5: typing the own username deletes (deactivates) the account; the session ends with it. */
export async function requestAccountDeletion(confirmation: string, client: HttpClient = httpClient): Promise<{ ok: true; status: AccountDeletionStatus } | { ok: false; message: string }> {
  try {
    const status = await client.sendJson('POST', requestAccountDeletionEndpoint.path, { confirmation }, { response: requestAccountDeletionEndpoint.response });
    // Signed out everywhere, this tab included.
    await signOut(client);
    usePartnerStore.setState(initialPartnerState());
    return { ok: true, status };
  } catch (err) {
    return { ok: false, message: messageOf(err) };
  }
}

export async function reactivateAccount(client: HttpClient = httpClient): Promise<{ ok: true } | { ok: false; message: string }> {
  try {
    await client.sendJson('POST', reactivateAccountEndpoint.path, undefined, { response: reactivateAccountEndpoint.response });
    useSessionStore.setState({ pendingDeletion: false });
    await loadAccount(client);
    usePartnerStore.setState(initialPartnerState());
    return { ok: true };
  } catch (err) {
    return { ok: false, message: messageOf(err) };
  }
}
