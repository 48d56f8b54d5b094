import { errorCatalogue, OnAirError, type ErrorCode } from '@onair/protocol';

/** better-auth's error codes (its plugins' and its core's) → the OnAir catalogue. */
const authCodes: Record<string, ErrorCode> = {
  INVALID_EMAIL: 'EMAIL_INVALID',
  INVALID_OTP: 'CODE_INVALID',
  OTP_NOT_FOUND: 'CODE_INVALID',
  OTP_EXPIRED: 'CODE_EXPIRED',
  TOO_MANY_ATTEMPTS: 'CODE_ATTEMPTS_EXCEEDED',
  INVALID_PHONE_NUMBER: 'PHONE_INVALID',
  PHONE_NUMBER_EXIST: 'PHONE_IN_USE',
  INVALID_CODE: 'MFA_CODE_INVALID',
  OTP_HAS_EXPIRED: 'CODE_EXPIRED',
  INVALID_BACKUP_CODE: 'RECOVERY_CODE_INVALID',
  INVALID_TWO_FACTOR_COOKIE: 'MFA_SIGN_IN_EXPIRED',
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: 'MFA_LOCKED',
  ACCOUNT_TEMPORARILY_LOCKED: 'MFA_LOCKED',
  TOTP_ALREADY_ENABLED: 'MFA_ALREADY_ENABLED',
  TWO_FACTOR_NOT_ENABLED: 'MFA_NOT_ENABLED',
  TOTP_NOT_ENABLED: 'MFA_NOT_ENABLED',
  INVALID_TOKEN: 'LINK_INVALID',
  EMAIL_ALREADY_IN_USE: 'EMAIL_IN_USE',
  USER_ALREADY_EXISTS: 'EMAIL_IN_USE',
  EMAIL_IS_THE_SAME: 'EMAIL_UNCHANGED',
  UNAUTHORIZED: 'UNAUTHENTICATED',
  SESSION_EXPIRED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
};

function isCatalogueCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(errorCatalogue, code);
}

export function onAirErrorFor(status: number, body: { code?: unknown; message?: unknown } | null): OnAirError {
  const code = body?.code;
  if (isCatalogueCode(code)) return new OnAirError(code, typeof body?.message === 'string' ? body.message : undefined);
  const mapped = typeof code === 'string' ? authCodes[code] : undefined;
  if (mapped) return new OnAirError(mapped);
  if (status === 429) return new OnAirError('RATE_LIMITED');
  if (status === 401) return new OnAirError('UNAUTHENTICATED');
  if (status === 403) return new OnAirError('FORBIDDEN');
  if (status === 404) return new OnAirError('NOT_FOUND');
  if (status >= 500) return new OnAirError('INTERNAL');
  // Request shape errors: better-auth's message names the field, which helps an API client.
  return new OnAirError(
    'VALIDATION_FAILED',
    typeof body?.message === 'string' ? body.message : undefined,
    typeof code === 'string' ? { authCode: code } : undefined,
  );
}

/** Errors that reach the browser as `?error=` on a redirect (magic link, OAuth callback). */
function redirectErrorCode(path: string, error: string): ErrorCode {
  if (isCatalogueCode(error)) return error;
  if (path.includes('/magic-link/')) return error === 'INVALID_TOKEN' || error === 'EXPIRED_TOKEN' ? 'LINK_INVALID' : 'INTERNAL';
  if (error === 'access_denied') return 'OAUTH_DENIED';
  if (error === 'account_not_linked') return 'OAUTH_ACCOUNT_NOT_LINKED';
  if (error === 'email_not_found') return 'OAUTH_EMAIL_MISSING';
  return 'OAUTH_FAILED';
}

/**
 * Gives every answer of /api/auth the api's single error shape: JSON errors become
 * `{error: {code, message}}` with a catalogue code, and redirects that carry `?error=` get the
 * catalogue code and its message, so the UI words sign-in failures from one list. Cookies and
 * other headers pass through untouched.
 */
export async function translateAuthResponse(requestUrl: string, res: Response): Promise<Response> {
  const path = new URL(requestUrl).pathname;
  const location = res.headers.get('location');
  if (location && res.status >= 300 && res.status < 400) {
    const url = new URL(location, requestUrl);
    const error = url.searchParams.get('error');
    if (!error) return res;
    const code = redirectErrorCode(path, error);
    url.searchParams.set('error', code);
    url.searchParams.set('error_description', errorCatalogue[code].message);
    const headers = new Headers(res.headers);
    headers.set('location', url.toString());
    return new Response(null, { status: res.status, headers });
  }
  if (res.status < 400) return res;
  const body = (await res
    .clone()
    .json()
    .catch(() => null)) as { code?: unknown; message?: unknown } | null;
  const error = onAirErrorFor(res.status, body);
  const headers = new Headers(res.headers);
  headers.set('content-type', 'application/json');
  headers.delete('content-length');
  return new Response(JSON.stringify(error.toBody()), { status: error.status, headers });
}
