import { listDataExportsEndpoint, requestDataExportEndpoint, type DataExport } from '@onair/protocol';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { messageOf } from './api-errors.ts';
import { showToast } from './toasts.ts';

export async function loadDataExports(client: HttpClient = httpClient): Promise<{ exports: DataExport[]; linkHours: number } | null> {
  try {
    return await call(listDataExportsEndpoint, {}, client);
  } catch {
    return null;
  }
}

export async function requestDataExport(client: HttpClient = httpClient): Promise<boolean> {
  try {
    await call(requestDataExportEndpoint, {}, client);
    showToast({ kind: 'success', title: 'Export started', description: 'We are gathering your data. This page shows the progress.' });
    return true;
  } catch (err) {
    showToast({ kind: 'error', title: 'Could not start the export', description: messageOf(err) });
    return false;
  }
}
