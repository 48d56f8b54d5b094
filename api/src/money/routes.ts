import { Router } from 'express';
import {
  addPaymentMethodEndpoint,
  channelAllows,
  connectCharityEndpoint,
  createTipCheckoutEndpoint,
  disconnectCharityEndpoint,
  downloadTransactionsEndpoint,
  getCharityEndpoint,
  getStatisticsEndpoint,
  getTaxInterviewEndpoint,
  getTipPageEndpoint,
  getTipSettingsEndpoint,
  getWalletEndpoint,
  listTransactionsEndpoint,
  OnAirError,
  removePaymentMethodEndpoint,
  requestPayoutEndpoint,
  setDefaultPaymentMethodEndpoint,
  setTipsAvailabilityEndpoint,
  submitTaxInterviewEndpoint,
  updateTipSettingsEndpoint,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import { authenticate, getCurrentUser, type SessionResolver } from '../http/auth-context.ts';
import { FileReply, mount } from '../http/mount.ts';
import { channelAccessOf } from '../access/channel-access.ts';
import type { Money } from './index.ts';

/**
 * The money routes. Channel pages sit under /api/v1/partner (authenticated there, channel access
 * checked by mount() from each endpoint's channelCapability); the tip page is public.
 */
export function moneyRoutes(deps: { db: Db; money: Money; resolveSession: SessionResolver }): Router {
  const { tips, payouts, transactions, charity, statistics } = deps.money;
  const router = Router();
  router.use('/api/v1/admin/tips-availability', authenticate(deps.db, deps.resolveSession));

  mount(router, getTipPageEndpoint, async ({ params }) => tips.page(params.creatorId));
  mount(router, createTipCheckoutEndpoint, async ({ params, body }) => tips.checkout(params.creatorId, body));
  mount(router, setTipsAvailabilityEndpoint, async ({ body }, { req }) => {
    if (getCurrentUser(req).userType !== 'ADMIN') throw new OnAirError('FORBIDDEN', 'Only an operator can switch tipping on or off.');
    return tips.setAvailability(body.available, body.reason);
  });

  mount(router, getTipSettingsEndpoint, async ({ params }) => tips.settings(params.channelId));
  mount(router, updateTipSettingsEndpoint, async ({ params, body }) => tips.saveSettings(params.channelId, body));

  mount(router, getWalletEndpoint, async ({ params }) => payouts.wallet(params.channelId));
  mount(router, getTaxInterviewEndpoint, async ({ params }) => payouts.taxInterview(params.channelId));
  mount(router, submitTaxInterviewEndpoint, async ({ params, body }) => payouts.submitTaxInterview(params.channelId, body));
  mount(router, addPaymentMethodEndpoint, async ({ params, body }) => payouts.addPaymentMethod(params.channelId, body));
  mount(router, setDefaultPaymentMethodEndpoint, async ({ params }) => ({ paymentMethods: await payouts.setDefault(params.channelId, params.methodId) }));
  mount(router, removePaymentMethodEndpoint, async ({ params }) => ({ paymentMethods: await payouts.removePaymentMethod(params.channelId, params.methodId) }));
  mount(router, requestPayoutEndpoint, async ({ params, body }) => payouts.requestPayout(params.channelId, body));

  mount(router, listTransactionsEndpoint, async ({ params, query }) => transactions.page(params.channelId, query));
  mount(router, downloadTransactionsEndpoint, async ({ params, query }) => {
    const file = await transactions.csv(params.channelId, query);
    return new FileReply(file.filename, 'text/csv; charset=utf-8', Buffer.from(file.body, 'utf8'));
  });

  mount(router, getCharityEndpoint, async ({ params }) => ({ campaign: await charity.get(params.channelId) }));
  mount(router, connectCharityEndpoint, async ({ params, body }) => ({ campaign: await charity.connect(params.channelId, body) }));
  mount(router, disconnectCharityEndpoint, async ({ params }) => ({ campaign: await charity.disconnect(params.channelId) }));

  mount(router, getStatisticsEndpoint, async ({ params, query }, { req, res }) => {
    // Revenue is money: only the owner sees it ('manage money'); Analytics holders see the rest.
    const role = await channelAccessOf(res).roleOf(getCurrentUser(req), params.channelId);
    return statistics.statistics(params.channelId, query, role !== null && channelAllows(role, 'manage money'));
  });
  return router;
}
