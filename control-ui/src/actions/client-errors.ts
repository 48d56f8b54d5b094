import { reportClientErrorEndpoint, scrubErrorText, scrubRoute, trimStack, CLIENT_ERROR_MESSAGE_MAX, type ClientErrorReport } from '@onair/protocol';
import { call } from '../api/call.ts';
import type { HttpClient } from '../api/http-client.ts';

/** A page that fails in a loop reports its first few failures, not thousands. */
const MAX_REPORTS_PER_PAGE = 5;
let sent = 0;

/** The report of a caught rendering error: no personal data, the path without query or fragment. */
export function clientErrorReport(error: unknown, code: string, pathname: string): ClientErrorReport {
  const err = error instanceof Error ? error : new Error(typeof error === 'string' ? error : 'A non-error value was thrown.');
  const message = scrubErrorText(`${err.name}: ${err.message}`).trim().slice(0, CLIENT_ERROR_MESSAGE_MAX) || 'Error';
  const stack = trimStack(err.stack);
  return { code, message, ...(stack ? { stack } : {}), release: __ONAIR_RELEASE__, route: scrubRoute(pathname) };
}

/**
 * Tells the api about a rendering failure an error boundary caught, so an operator sees it (the
 * console stays for the developer). Never throws: a report that cannot be sent is dropped.
 */
export async function reportRenderingError(error: unknown, code: string, client?: HttpClient): Promise<void> {
  if (sent >= MAX_REPORTS_PER_PAGE) return;
  sent += 1;
  const pathname = typeof window === 'undefined' ? '/' : window.location.pathname;
  try {
    await call(reportClientErrorEndpoint, { body: clientErrorReport(error, code, pathname) }, client);
  } catch {
    // The api is down or refused (rate limit): the console line is all there is.
  }
}

/** Tests start each case with a fresh page's allowance. */
export function resetClientErrorReports(): void {
  sent = 0;
}
