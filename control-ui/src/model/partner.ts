import { contentLanguages, countryCodes, errorCatalogue, type ErrorCode } from '@onair/protocol';

/** Field → first message, from the api's VALIDATION_FAILED details (`issues[].path` and `message`). */
export function fieldErrorsOf(details: unknown): Record<string, string> {
  const issues = (details as { issues?: { path?: unknown; message?: unknown }[] } | null)?.issues;
  const errors: Record<string, string> = {};
  if (!Array.isArray(issues)) return errors;
  for (const issue of issues) {
    const path = Array.isArray(issue.path) ? issue.path.map(String) : [];
    // An invitee's e-mail and Twitch username are one field on the form.
    const field = path[0] === 'invitee' ? 'invitee' : (path[0] ?? '');
    if (field && typeof issue.message === 'string' && !(field in errors)) errors[field] = issue.message;
  }
  return errors;
}

/**
 * Partner spec §8 'Email login': the partner area's words for the sign-in outcomes; anything else
 * is the generic failure with its error code.
 */
export function partnerSignInWords(code: string | null, fallback: string): string {
  switch (code) {
    case 'CODE_INVALID':
      return 'The code you entered is incorrect. Please try again.';
    case 'LINK_INVALID':
    case 'CODE_EXPIRED':
      return 'Your link has expired. Please send another.';
    case 'RATE_LIMITED':
      return 'Login emails sent too quickly. Please wait a minute and try again.';
    case 'EMAIL_INVALID':
      return 'Enter a valid email address';
    case 'EMAIL_UNDELIVERABLE':
    case 'CODE_ATTEMPTS_EXCEEDED':
      return fallback;
    default:
      if (code && code in errorCatalogue && errorCatalogue[code as ErrorCode].fault === 'user') return fallback;
      return `Sign-in failed. Please try again. (Error code: ${code ?? 'UNKNOWN'})`;
  }
}

/** Partner spec §8: a platform's sign-in (Twitch, YouTube, Facebook) came back without a session. */
export const PLATFORM_LOGIN_FAILED_NOTICE = 'Platform login failed. Please try again, or sign in with your e-mail.';
/** Partner spec §8: the signup request (its code or link) expired before it was used. */
export const SIGNUP_EXPIRED_NOTICE = 'Your signup request expired. Please start again.';
/** A platform account without an OnAir account while new accounts join the waitlist. */
export const SIGNUP_DISABLED_NOTICE = 'There is no OnAir account for this login yet. New accounts join the waitlist first.';

/** Where a sign-in may send the browser back to: a path of this app, never another site. */
export function safeReturnPath(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  return next;
}

let regionNames: Intl.DisplayNames | null = null;

/** The countries of the maintained ISO list (protocol), named in English, sorted by name. */
export function countryOptions(): { value: string; label: string }[] {
  regionNames ??= new Intl.DisplayNames(['en'], { type: 'region' });
  const names = regionNames;
  return countryCodes.map((code) => ({ value: code, label: names.of(code) ?? code })).sort((a, b) => a.label.localeCompare(b.label));
}

export function languageOptions(): { value: string; label: string }[] {
  return Object.entries(contentLanguages)
    .map(([value, label]) => ({ value, label }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** "1 h 05 min", "12 min", "45 s" for a stream's length. */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}
