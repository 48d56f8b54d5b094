import { fieldErrorsOf } from '../model/partner.ts';
import { apiErrorOf, messageOf } from './api-errors.ts';

/**
 * What an action gives the form or page that called it: the api's answer, or its words overall and
 * per field (empty when the failure is not about a field). The one result type of the actions.
 */
export type Result<T = void> = { ok: true; value: T } | Failure;
export type Failure = { ok: false; message: string; fieldErrors: Record<string, string> };

/**
 * An api error as a form shows it: a validation failure marks its fields and says to check them;
 * an error about one field (its details name it) marks that field with the error's words.
 */
export function failureOf(err: unknown): Failure {
  const api = apiErrorOf(err);
  const fieldErrors = api?.code === 'VALIDATION_FAILED' ? fieldErrorsOf(api.details) : {};
  if (api && api.code !== 'VALIDATION_FAILED' && typeof api.details === 'object' && api.details && 'field' in api.details)
    fieldErrors[String((api.details as { field: unknown }).field)] = api.message;
  return { ok: false, message: api?.code === 'VALIDATION_FAILED' ? 'Check the highlighted fields.' : messageOf(err), fieldErrors };
}

/** Runs a call: its value, or its failure as a form shows it. */
export async function attempt<T>(fn: () => Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (err) {
    return failureOf(err);
  }
}
