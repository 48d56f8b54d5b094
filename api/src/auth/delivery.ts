import { createAuthMiddleware } from 'better-auth/api';
import type { BetterAuthPlugin } from 'better-auth';
import { OnAirError } from '@onair/protocol';
import { authError } from './guards.ts';

/** Endpoints whose sender better-auth runs through runInBackgroundOrAwait, which swallows errors. */
const reportedPaths = new Set(['/email-otp/send-verification-otp', '/email-otp/request-email-change']);

/**
 * better-auth hides a failed e-mail-code send (the reply is "sent" either way), but the spec's
 * sequences include "not deliverable", and a newcomer whose mail server is down must be told.
 * The sender records its failure against the request; an after hook turns it into the answer.
 */
export class DeliveryFailures {
  private readonly failures = new WeakMap<Request, OnAirError>();

  /** Sends, remembering a catalogue failure for the request, then rethrows. */
  async track(request: Request | undefined, send: () => Promise<void>): Promise<void> {
    try {
      await send();
    } catch (err) {
      if (request && err instanceof OnAirError) this.failures.set(request, err);
      throw err instanceof OnAirError ? authError(err.code, { message: err.message }) : err;
    }
  }

  plugin(): BetterAuthPlugin {
    return {
      id: 'onair-delivery-report',
      hooks: {
        after: [
          {
            matcher: (ctx) => reportedPaths.has(ctx.path ?? ''),
            handler: createAuthMiddleware(async (ctx) => {
              const failure = ctx.request ? this.failures.get(ctx.request) : undefined;
              if (failure) throw authError(failure.code, { message: failure.message });
            }),
          },
        ],
      },
    };
  }
}
