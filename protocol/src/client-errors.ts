import { z } from 'zod';

/**
 * What the web app tells the api when it fails to render (the error boundaries): enough for an
 * operator to find the bug, nothing about the person. The route is a path with its id-like parts
 * replaced, never a query or fragment (tokens travel there); messages and stacks are scrubbed of
 * e-mail addresses, URL queries and long token-like strings on both sides (the browser before it
 * sends, the api before it logs).
 */
export const CLIENT_ERROR_MESSAGE_MAX = 500;
export const CLIENT_ERROR_STACK_MAX = 4000;
export const CLIENT_ERROR_STACK_LINES = 20;
/** Reports one browser (one address) may send a minute; more answer RATE_LIMITED. */
export const CLIENT_ERRORS_PER_MINUTE = 10;

export const clientErrorReportSchema = z
  .object({
    /** The error code the fallback shows the creator (ErrorFallback), to match a support request to the log line. */
    code: z.string().regex(/^[0-9A-F]{8}$/),
    message: z.string().trim().min(1).max(CLIENT_ERROR_MESSAGE_MAX),
    stack: z.string().max(CLIENT_ERROR_STACK_MAX).optional(),
    release: z.string().trim().min(1).max(64),
    /** The page's path (no query, no fragment), as scrubRoute leaves it. */
    route: z
      .string()
      .max(200)
      .regex(/^\/[^?#\s]*$/, 'a path without query or fragment'),
  })
  .strict();
export type ClientErrorReport = z.infer<typeof clientErrorReportSchema>;

export const clientErrorAcceptedSchema = z.object({ received: z.literal(true) });

const EMAIL = /[^\s@/()]+@[^\s@/()]+\.[A-Za-z]{2,}/g;
/** A URL's query or fragment in a stack line, up to the `:line:column` or the closing parenthesis. */
const URL_QUERY = /(?<=\S)[?#][^\s):]*/g;
/** Ids and secrets: a UUID, or a run of 20+ URL-safe characters (session tokens, signed keys, guest link codes). */
const TOKEN_LIKE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[A-Za-z0-9_\-.~%]{20,}/gi;

/** A UUID, or a long run mixing letters and digits that is not a bundle's file name (`index-B2kdL9xQ.js`). Function names stay. */
function isSecretLike(run: string): boolean {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(run)) return true;
  if (/\.(m?js|tsx?|css|map)$/.test(run)) return false;
  return /\d/.test(run) && /[A-Za-z]/.test(run);
}

/** A path segment that looks like an id or a token becomes `:id`; query and fragment go. */
export function scrubRoute(pathname: string): string {
  const path = pathname.split(/[?#]/, 1)[0] ?? '/';
  const segments = path.split('/').map((s) => (/^[0-9a-f-]{16,}$/i.test(s) || (s.length >= 20 && isSecretLike(s)) || /^\d+$/.test(s) ? ':id' : s));
  const scrubbed = segments.join('/').slice(0, 200);
  return scrubbed.startsWith('/') ? scrubbed : `/${scrubbed}`;
}

/** E-mail addresses, URL queries and token-like runs leave the text; file paths and line numbers stay. */
export function scrubErrorText(text: string): string {
  return text
    .replace(EMAIL, '[email]')
    .replace(URL_QUERY, '')
    .replace(TOKEN_LIKE, (run) => (isSecretLike(run) ? '[redacted]' : run));
}

/** The first lines of a stack, scrubbed and cut to the report's size. */
export function trimStack(stack: string | undefined): string | undefined {
  if (!stack) return undefined;
  return scrubErrorText(stack.split('\n').slice(0, CLIENT_ERROR_STACK_LINES).join('\n')).slice(0, CLIENT_ERROR_STACK_MAX);
}
