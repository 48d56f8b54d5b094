import { listDataExportsEndpoint, requestDataExportEndpoint } from '@onair/protocol';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { usePartnerSettingsStore } from '../stores/index.ts';
import { messageOf } from './api-errors.ts';
import { showToast } from './toasts.ts';

/** Settings › Data Exports opens: its list is read afresh. */
export async function openDataExports(client: HttpClient = httpClient): Promise<void> {
  usePartnerSettingsStore.setState({ exports: null, exportsFailed: false });
  await refreshDataExports(client);
}

/** Reads the list again (after a request, and while an export is being built); a failure is kept until the section opens again. */
export async function refreshDataExports(client: HttpClient = httpClient): Promise<void> {
  try {
    usePartnerSettingsStore.setState({ exports: await call(listDataExportsEndpoint, {}, client) });
  } catch {
    usePartnerSettingsStore.setState({ exportsFailed: true });
  }
}

/** Starts an export; the list is read again either way, so the section shows where it stands. */
export async function requestDataExport(client: HttpClient = httpClient): Promise<boolean> {
  let started: boolean;
  try {
    await call(requestDataExportEndpoint, {}, client);
    showToast({ kind: 'success', title: 'Export started', description: 'We are gathering your data. This page shows the progress.' });
    started = true;
  } catch (err) {
    showToast({ kind: 'error', title: 'Could not start the export', description: messageOf(err) });
    started = false;
  }
  await refreshDataExports(client);
  return started;
}
