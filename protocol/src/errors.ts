import { z } from 'zod';

/**
 * The one error catalogue of OnAir. Every error that crosses a process boundary carries one of
 * these codes; `fault` tells a user-caused problem (bad input, bad stream key) apart from a
 * service fault, so the UI can word the first for a creator and page an operator for the second.
 */
export const errorCatalogue = {
  VALIDATION_FAILED: { status: 400, fault: 'user', message: 'The request is not valid.' },
  MALFORMED_JSON: { status: 400, fault: 'user', message: 'The request body is not valid JSON.' },
  UNAUTHENTICATED: { status: 401, fault: 'user', message: 'You need to sign in first.' },
  FORBIDDEN: { status: 403, fault: 'user', message: 'You do not have permission to do that.' },
  NOT_FOUND: { status: 404, fault: 'user', message: 'Nothing was found at this address.' },
  CONFLICT: { status: 409, fault: 'user', message: 'The resource was changed by someone else.' },
  PAYLOAD_TOO_LARGE: { status: 413, fault: 'user', message: 'The request body is too large.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, fault: 'user', message: 'Send the request body as JSON.' },
  RATE_LIMITED: { status: 429, fault: 'user', message: 'Too many attempts. Please wait and try again.' },
  INTERNAL: { status: 500, fault: 'service', message: 'Something went wrong on our side.' },
  DEPENDENCY_UNAVAILABLE: { status: 503, fault: 'service', message: 'A service OnAir depends on is unavailable.' },
} as const satisfies Record<string, { status: number; fault: 'user' | 'service'; message: string }>;

export type ErrorCode = keyof typeof errorCatalogue;
export const errorCodes = Object.keys(errorCatalogue) as [ErrorCode, ...ErrorCode[]];

/** The single error body every HTTP error of the api uses. */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.enum(errorCodes),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** An error that knows its catalogue entry; thrown anywhere in an app, rendered once at the edge. */
export class OnAirError extends Error {
  override readonly name = 'OnAirError';
  readonly code: ErrorCode;
  readonly details: unknown;

  constructor(code: ErrorCode, message?: string, details?: unknown) {
    super(message ?? errorCatalogue[code].message);
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return errorCatalogue[this.code].status;
  }

  get fault(): 'user' | 'service' {
    return errorCatalogue[this.code].fault;
  }

  toBody(): ErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details === undefined ? {} : { details: this.details }),
      },
    };
  }
}
