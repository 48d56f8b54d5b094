import Stripe from 'stripe';
import { OnAirError } from '@onair/protocol';
import type { Logger } from '@onair/runtime';

/** The Stripe keys the money area uses: billing's (billing/config.ts BillingSettings has this shape and more). */
export interface StripeKeys {
  secretKey: string;
  /** Another Stripe address (the local double). */
  apiUrl?: URL | undefined;
}

/** The Stripe client of the money area: the same keys and address as billing (the double in test mode). */
export function moneyStripe(settings: StripeKeys | undefined): Stripe | undefined {
  if (!settings) return undefined;
  const api = settings.apiUrl;
  return new Stripe(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 30_000,
    ...(api
      ? { host: api.hostname, port: Number(api.port || (api.protocol === 'https:' ? 443 : 80)), protocol: api.protocol === 'https:' ? 'https' : 'http' }
      : {}),
  });
}

/** Stripe's refusals and outages become one service error of `code`; the detail is logged, never shown. */
export async function providerCall<T>(
  logger: Logger,
  code: 'BILLING_PROVIDER_FAILED' | 'PAYOUT_PROVIDER_FAILED',
  what: string,
  fn: () => Promise<T>,
): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof OnAirError) throw err;
    logger.warn({ err: err instanceof Error ? err.message : String(err), what }, 'payment provider call failed');
    throw new OnAirError(code);
  }
}
