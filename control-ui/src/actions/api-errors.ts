import { errorBodySchema, type ErrorBody } from '@onair/protocol';
import { RequestFailedError, UnauthorizedError } from '../api/http-errors.ts';

/** The api's `{error:{code,message,details}}` of a failed request, when it sent one. */
export function apiErrorOf(err: unknown): ErrorBody['error'] | null {
  if (err instanceof RequestFailedError || err instanceof UnauthorizedError) {
    const parsed = errorBodySchema.safeParse(err.body);
    if (parsed.success) return parsed.data.error;
  }
  return null;
}

/** Words for the creator: the api's message when there is one, else the error's own. */
export function messageOf(err: unknown): string {
  return apiErrorOf(err)?.message ?? (err instanceof Error ? err.message : String(err));
}
