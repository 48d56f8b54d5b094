import { moneyEndpoints } from '@onair/protocol';
import type { SecretBox } from '@onair/runtime';
import type { EventsStore } from '../events/events-store.ts';
import type { SessionResolver } from '../http/auth-context.ts';
import type { Platform } from '../module.ts';
import { CharityService } from './charity-service.ts';
import type { Money, MoneyWebhooks } from './index.ts';
import { Ledger } from './ledger.ts';
import { PayoutsService } from './payouts-service.ts';
import { moneyRoutes } from './routes.ts';
import { StatisticsService } from './statistics-service.ts';
import { moneyStripe, type StripeKeys } from './stripe-client.ts';
import { TipsService } from './tips-service.ts';
import { TransactionsService } from './transactions-service.ts';

export interface MoneyServices {
  money: Money;
  /** What billing's Stripe webhook hands to the money area. */
  moneyWebhooks: MoneyWebhooks;
}

/** The money area of the partner network: one ledger, tips, payouts, transactions, charity, statistics. */
export const moneyModule = {
  name: 'money',
  build: (deps: Platform & { stripeSettings: StripeKeys | undefined; box: SecretBox | null; eventsStore: EventsStore }): MoneyServices => {
    const now = deps.now ? { now: deps.now } : {};
    const stripe = moneyStripe(deps.stripeSettings);
    const ledger = new Ledger(deps.db);
    const tips = new TipsService({
      db: deps.db,
      logger: deps.logger,
      ledger,
      events: deps.eventsStore,
      stripe,
      publicUrl: deps.config.PUBLIC_URL,
      testMode: deps.stripeSettings?.secretKey.startsWith('sk_test_') ?? false,
    });
    const payouts = new PayoutsService({ db: deps.db, logger: deps.logger, ledger, stripe, box: deps.box ?? undefined, ...now });
    const moneyWebhooks: MoneyWebhooks = {
      handles: (event) => tips.handles(event) || payouts.handles(event),
      apply: async (tx, event) => {
        if (tips.handles(event)) return tips.apply(tx, event);
        await payouts.apply(tx, event);
        return undefined;
      },
    };
    return {
      money: {
        ledger,
        tips,
        payouts,
        transactions: new TransactionsService(deps.db),
        charity: new CharityService({ db: deps.db, logger: deps.logger }),
        statistics: new StatisticsService({ db: deps.db, tips, ...now }),
        webhooks: moneyWebhooks,
      },
      moneyWebhooks,
    };
  },
  http: {
    routes: {
      endpoints: moneyEndpoints,
      mount: (c: Platform & MoneyServices & { resolveSession: SessionResolver }) => moneyRoutes({ db: c.db, money: c.money, resolveSession: c.resolveSession }),
    },
  },
};
