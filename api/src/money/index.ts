import type Stripe from 'stripe';
import type { Db } from '@onair/db';
import type { CharityService } from './charity-service.ts';
import type { Ledger } from './ledger.ts';
import type { PayoutsService } from './payouts-service.ts';
import type { StatisticsService } from './statistics-service.ts';
import type { TipsService } from './tips-service.ts';
import type { TransactionsService } from './transactions-service.ts';

export interface Money {
  ledger: Ledger;
  tips: TipsService;
  payouts: PayoutsService;
  transactions: TransactionsService;
  charity: CharityService;
  statistics: StatisticsService;
  /** The Stripe webhook events of the money area (tips, refunds, disputes, Connect payouts). */
  webhooks: MoneyWebhooks;
}

export interface MoneyWebhooks {
  handles(event: Stripe.Event): boolean;
  /** Applied in the webhook's transaction (with its event id); returns what to announce after commit. */
  apply(tx: Parameters<Parameters<Db['$transaction']>[0]>[0], event: Stripe.Event): Promise<(() => Promise<void>) | undefined>;
}
