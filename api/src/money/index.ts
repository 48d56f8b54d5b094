import type Stripe from 'stripe';
import type { Redis } from 'ioredis';
import type { Db } from '@onair/db';
import { SecretBox, type Logger } from '@onair/runtime';
import type { BillingSettings } from '../billing/config.ts';
import type { AlertsService } from '../events/alerts-service.ts';
import { EventsStore } from '../events/events-store.ts';
import { CharityService } from './charity-service.ts';
import { Ledger } from './ledger.ts';
import { PayoutsService } from './payouts-service.ts';
import { StatisticsService } from './statistics-service.ts';
import { moneyStripe } from './stripe-client.ts';
import { TipsService } from './tips-service.ts';
import { TransactionsService } from './transactions-service.ts';

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

/** The money area of the partner network: one ledger, tips, payouts, transactions, charity, statistics. */
export function createMoney(deps: { db: Db; redis: Redis; logger: Logger; publicUrl: string; billing: BillingSettings | undefined; secretsKey: string | undefined; alerts: AlertsService; now?: () => Date }): Money {
  const stripe = moneyStripe(deps.billing);
  const ledger = new Ledger(deps.db);
  const events = new EventsStore(deps.db, deps.redis, deps.logger, deps.alerts);
  const tips = new TipsService({ db: deps.db, logger: deps.logger, ledger, events, stripe, publicUrl: deps.publicUrl, testMode: deps.billing?.secretKey.startsWith('sk_test_') ?? false });
  const payouts = new PayoutsService({ db: deps.db, logger: deps.logger, ledger, stripe, box: deps.secretsKey ? new SecretBox(deps.secretsKey) : undefined, ...(deps.now ? { now: deps.now } : {}) });
  return {
    ledger,
    tips,
    payouts,
    transactions: new TransactionsService(deps.db),
    charity: new CharityService({ db: deps.db, logger: deps.logger }),
    statistics: new StatisticsService({ db: deps.db, tips, ...(deps.now ? { now: deps.now } : {}) }),
    webhooks: {
      handles: (event) => tips.handles(event) || payouts.handles(event),
      apply: async (tx, event) => {
        if (tips.handles(event)) return tips.apply(tx, event);
        await payouts.apply(tx, event);
        return undefined;
      },
    },
  };
}

export { moneyRoutes } from './routes.ts';
