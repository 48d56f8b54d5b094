import { getAccountDeletionEndpoint, reactivateAccountEndpoint, requestAccountDeletionEndpoint, type AccountDeletionStatus } from '@onair/protocol';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { initialPartnerSettingsState, initialPartnerState, usePartnerSettingsStore, usePartnerStore, useSessionStore } from '../stores/index.ts';
import { messageOf } from './api-errors.ts';
import type { Result } from './result.ts';
import { loadAccount, signOut } from './session.ts';

/** The account's deletion terms (what to type, the retention window), read afresh for the screen that opens. */
export async function loadDeletionStatus(client: HttpClient = httpClient): Promise<void> {
  usePartnerSettingsStore.setState({ deletion: null });
  try {
    usePartnerSettingsStore.setState({ deletion: await call(getAccountDeletionEndpoint, {}, client) });
  } catch {
    // Without the terms the section stays hidden, as before it loaded.
  }
}

/** Partner spec §5: typing the own username deletes (deactivates) the account; the session ends with it. */
export async function requestAccountDeletion(confirmation: string, client: HttpClient = httpClient): Promise<Result<AccountDeletionStatus>> {
  try {
    const status = await call(requestAccountDeletionEndpoint, { body: { confirmation } }, client);
    // Signed out everywhere, this tab included.
    await signOut(client);
    usePartnerStore.setState(initialPartnerState());
    usePartnerSettingsStore.setState(initialPartnerSettingsState());
    return { ok: true, value: status };
  } catch (err) {
    return { ok: false, message: messageOf(err), fieldErrors: {} };
  }
}

export async function reactivateAccount(client: HttpClient = httpClient): Promise<Result> {
  try {
    await call(reactivateAccountEndpoint, {}, client);
    useSessionStore.setState({ pendingDeletion: false });
    await loadAccount(client);
    usePartnerStore.setState(initialPartnerState());
    usePartnerSettingsStore.setState(initialPartnerSettingsState());
    return { ok: true, value: undefined };
  } catch (err) {
    return { ok: false, message: messageOf(err), fieldErrors: {} };
  }
}
