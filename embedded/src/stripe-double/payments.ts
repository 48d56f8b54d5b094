import { randomBytes } from 'node:crypto';

/**
 * One-off payments and Connect payouts of the Stripe double: Checkout in `mode=payment` with ad-hoc
 * `price_data` (a tip), the PaymentIntent and Charge it makes, refunds, disputes, connected
 * accounts, transfers to them and payouts from them with their status changes. Every change is
 * announced as the webhook event Stripe sends for it (`account` set on a connected account's
 * events). Balances are checked as Stripe does: a transfer needs the platform's balance, a payout
 * the connected account's.
 */

type Json = Record<string, unknown>;

export class PaymentError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

export interface PaymentsContext {
  now(): number;
  emit(type: string, object: Json, previous?: Json, account?: string): void;
  baseUrl(): string;
}

export type PayoutOutcome = 'in_transit' | 'paid' | 'failed' | 'canceled';

const newId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('base64url')}`;
const list = (data: Json[], url: string): Json => ({ object: 'list', data, has_more: false, url });
const DAY = 24 * 3600;

export class PaymentsDouble {
  readonly sessions = new Map<string, Json>();
  private readonly intents = new Map<string, Json>();
  private readonly charges = new Map<string, Json>();
  private readonly refunds = new Map<string, Json>();
  private readonly disputes = new Map<string, Json>();
  private readonly accounts = new Map<string, Json>();
  private readonly transfers = new Map<string, Json>();
  private readonly payouts = new Map<string, Json & { account: string }>();

  constructor(private readonly ctx: PaymentsContext) {}

  /** Money the platform holds: charges less refunds and lost disputes, less transfers out. */
  platformBalance(currency: string): number {
    let total = 0;
    for (const charge of this.charges.values()) if (charge.currency === currency) total += (charge.amount as number) - (charge.amount_refunded as number);
    for (const dispute of this.disputes.values()) if (dispute.currency === currency && dispute.status !== 'won') total -= dispute.amount as number;
    for (const transfer of this.transfers.values()) if (transfer.currency === currency) total -= transfer.amount as number;
    return total;
  }

  /** Money a connected account holds: transfers in, less payouts not failed or canceled. */
  accountBalance(account: string, currency: string): number {
    let total = 0;
    for (const transfer of this.transfers.values()) if (transfer.destination === account && transfer.currency === currency) total += transfer.amount as number;
    for (const payout of this.payouts.values())
      if (payout.account === account && payout.currency === currency && payout.status !== 'failed' && payout.status !== 'canceled')
        total -= payout.amount as number;
    return total;
  }

  createPaymentSession(params: Json): Json {
    const items = Object.values((params.line_items ?? {}) as Record<string, Json>);
    const item = items[0];
    const priceData = item?.price_data as Json | undefined;
    if (items.length !== 1 || !priceData)
      throw new PaymentError(
        400,
        'invalid_request_error',
        'The double takes one line item with price_data in payment mode.',
        'parameter_invalid',
        'line_items',
      );
    const amount = Number(priceData.unit_amount);
    const currency = String(priceData.currency ?? '').toLowerCase();
    if (!Number.isInteger(amount) || amount < 50)
      throw new PaymentError(400, 'invalid_request_error', 'Amount must be at least 50 cents.', 'amount_too_small', 'line_items[0][price_data][unit_amount]');
    if (!/^[a-z]{3}$/.test(currency)) throw new PaymentError(400, 'invalid_request_error', 'Invalid currency.', 'parameter_invalid', 'currency');
    for (const key of ['success_url', 'cancel_url'] as const)
      if (typeof params[key] !== 'string') throw new PaymentError(400, 'invalid_request_error', `Missing required param: ${key}.`, 'parameter_missing', key);
    const session: Json = {
      id: newId('cs'),
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      url: '',
      amount_total: amount * Number(item?.quantity ?? 1),
      currency,
      success_url: params.success_url,
      cancel_url: params.cancel_url,
      client_reference_id: (params.client_reference_id as string | undefined) ?? null,
      metadata: (params.metadata as Json | undefined) ?? {},
      payment_intent: null,
      productName: String((priceData.product_data as Json | undefined)?.name ?? 'Payment'),
      paymentIntentMetadata: ((params.payment_intent_data as Json | undefined)?.metadata as Json | undefined) ?? {},
      created: this.ctx.now(),
      expires_at: this.ctx.now() + DAY,
      livemode: false,
    };
    session.url = `${this.ctx.baseUrl()}/checkout/${session.id as string}`;
    this.sessions.set(session.id as string, session);
    return this.publicSession(session);
  }

  publicSession(session: Json): Json {
    const { productName: _p, paymentIntentMetadata: _m, ...rest } = session;
    return rest;
  }

  /** The hosted page's "Pay": a PaymentIntent that succeeds with its Charge, then the session completes. */
  completePayment(session: Json, card: string): void {
    const amount = session.amount_total as number;
    const currency = session.currency as string;
    const intent: Json = {
      id: newId('pi'),
      object: 'payment_intent',
      amount,
      amount_received: amount,
      currency,
      status: 'succeeded',
      metadata: session.paymentIntentMetadata,
      latest_charge: null,
      created: this.ctx.now(),
      livemode: false,
    };
    const charge: Json = {
      id: newId('ch'),
      object: 'charge',
      amount,
      amount_captured: amount,
      amount_refunded: 0,
      currency,
      paid: true,
      captured: true,
      refunded: false,
      disputed: false,
      status: 'succeeded',
      payment_intent: intent.id,
      metadata: session.paymentIntentMetadata,
      payment_method_details: { type: 'card', card: { last4: card.slice(-4) } },
      created: this.ctx.now(),
      livemode: false,
    };
    intent.latest_charge = charge.id;
    this.intents.set(intent.id as string, intent);
    this.charges.set(charge.id as string, charge);
    Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: intent.id });
    this.ctx.emit('payment_intent.succeeded', intent);
    this.ctx.emit('charge.succeeded', charge);
    this.ctx.emit('checkout.session.completed', this.publicSession(session));
  }

  private chargeOf(params: Json): Json {
    if (typeof params.charge === 'string') {
      const charge = this.charges.get(params.charge);
      if (!charge) throw new PaymentError(404, 'invalid_request_error', `No such charge: '${params.charge}'`, 'resource_missing', 'charge');
      return charge;
    }
    const intent = this.intents.get(String(params.payment_intent ?? ''));
    if (!intent)
      throw new PaymentError(
        404,
        'invalid_request_error',
        `No such payment_intent: '${String(params.payment_intent ?? '')}'`,
        'resource_missing',
        'payment_intent',
      );
    return this.charges.get(intent.latest_charge as string)!;
  }

  refund(params: Json): Json {
    const charge = this.chargeOf(params);
    const left = (charge.amount as number) - (charge.amount_refunded as number);
    const amount = params.amount === undefined ? left : Number(params.amount);
    if (left <= 0) throw new PaymentError(400, 'invalid_request_error', `Charge ${charge.id as string} has already been refunded.`, 'charge_already_refunded');
    if (!Number.isInteger(amount) || amount <= 0 || amount > left)
      throw new PaymentError(400, 'invalid_request_error', 'Refund amount is greater than the unrefunded amount.', 'amount_too_large', 'amount');
    const refund: Json = {
      id: newId('re'),
      object: 'refund',
      amount,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: charge.payment_intent,
      status: 'succeeded',
      created: this.ctx.now(),
      metadata: {},
    };
    this.refunds.set(refund.id as string, refund);
    const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
    charge.amount_refunded = (charge.amount_refunded as number) + amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    this.ctx.emit('refund.created', refund);
    this.ctx.emit('charge.refunded', charge, previous);
    return refund;
  }

  /** The card holder disputes the payment (a chargeback): Stripe takes the amount back at once. */
  dispute(paymentIntentId: string, reason = 'fraudulent'): Json {
    const charge = this.chargeOf({ payment_intent: paymentIntentId });
    const dispute: Json = {
      id: newId('dp'),
      object: 'dispute',
      amount: charge.amount,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: charge.payment_intent,
      reason,
      status: 'needs_response',
      created: this.ctx.now(),
      livemode: false,
      metadata: {},
    };
    this.disputes.set(dispute.id as string, dispute);
    charge.disputed = true;
    this.ctx.emit('charge.dispute.created', dispute);
    this.ctx.emit('charge.dispute.funds_withdrawn', dispute);
    return dispute;
  }

  closeDispute(disputeId: string, outcome: 'won' | 'lost'): Json {
    const dispute = this.disputes.get(disputeId);
    if (!dispute) throw new PaymentError(404, 'invalid_request_error', `No such dispute: '${disputeId}'`, 'resource_missing', 'id');
    const previous = { status: dispute.status };
    dispute.status = outcome;
    if (outcome === 'won') this.ctx.emit('charge.dispute.funds_reinstated', dispute);
    this.ctx.emit('charge.dispute.closed', dispute, previous);
    return dispute;
  }

  // ─── Connect ───

  createAccount(params: Json): Json {
    const external = params.external_account as Json | undefined;
    const account: Json = {
      id: newId('acct'),
      object: 'account',
      type: params.type ?? 'custom',
      country: params.country ?? 'US',
      email: params.email ?? null,
      default_currency: String(external?.currency ?? 'usd').toLowerCase(),
      charges_enabled: false,
      payouts_enabled: external !== undefined,
      metadata: params.metadata ?? {},
      external_accounts: list(
        external
          ? [
              {
                id: newId('ba'),
                object: 'bank_account',
                country: external.country,
                currency: String(external.currency ?? 'usd').toLowerCase(),
                last4: String(external.account_number ?? '').slice(-4),
                routing_number: external.routing_number ?? null,
                default_for_currency: true,
              },
            ]
          : [],
        '/v1/accounts/external_accounts',
      ),
      created: this.ctx.now(),
    };
    this.accounts.set(account.id as string, account);
    return account;
  }

  account(id: string): Json {
    const account = this.accounts.get(id);
    if (!account) throw new PaymentError(404, 'invalid_request_error', `No such account: '${id}'`, 'resource_missing', 'id');
    return account;
  }

  createTransfer(params: Json): Json {
    const amount = Number(params.amount);
    const currency = String(params.currency ?? '').toLowerCase();
    const destination = String(params.destination ?? '');
    this.account(destination);
    if (!Number.isInteger(amount) || amount <= 0)
      throw new PaymentError(400, 'invalid_request_error', 'Invalid positive integer', 'parameter_invalid_integer', 'amount');
    if (this.platformBalance(currency) < amount)
      throw new PaymentError(400, 'invalid_request_error', 'You have insufficient available funds in your Stripe account.', 'balance_insufficient');
    const transfer: Json = {
      id: newId('tr'),
      object: 'transfer',
      amount,
      currency,
      destination,
      metadata: params.metadata ?? {},
      transfer_group: params.transfer_group ?? null,
      reversed: false,
      created: this.ctx.now(),
      livemode: false,
    };
    this.transfers.set(transfer.id as string, transfer);
    this.ctx.emit('transfer.created', transfer);
    return transfer;
  }

  createPayout(account: string | undefined, params: Json): Json {
    if (!account)
      throw new PaymentError(400, 'invalid_request_error', 'The double pays out from connected accounts only: send Stripe-Account.', 'parameter_missing');
    const connected = this.account(account);
    const amount = Number(params.amount);
    const currency = String(params.currency ?? '').toLowerCase();
    if (!Number.isInteger(amount) || amount <= 0)
      throw new PaymentError(400, 'invalid_request_error', 'Invalid positive integer', 'parameter_invalid_integer', 'amount');
    if (this.accountBalance(account, currency) < amount)
      throw new PaymentError(400, 'invalid_request_error', 'You have insufficient funds in your Stripe account for this transfer.', 'balance_insufficient');
    const bank = ((connected.external_accounts as Json).data as Json[])[0];
    if (!bank) throw new PaymentError(400, 'invalid_request_error', 'This account has no external account to pay out to.', 'no_external_account');
    const payout = {
      id: newId('po'),
      object: 'payout',
      amount,
      currency,
      status: 'pending',
      method: 'standard',
      type: 'bank_account',
      destination: bank.id,
      arrival_date: this.ctx.now() + 2 * DAY,
      failure_code: null as string | null,
      failure_message: null as string | null,
      metadata: params.metadata ?? {},
      created: this.ctx.now(),
      livemode: false,
      account,
    };
    this.payouts.set(payout.id, payout);
    this.ctx.emit('payout.created', this.publicPayout(payout), undefined, account);
    return this.publicPayout(payout);
  }

  payout(account: string | undefined, id: string): Json {
    const payout = this.payouts.get(id);
    if (!payout || payout.account !== account) throw new PaymentError(404, 'invalid_request_error', `No such payout: '${id}'`, 'resource_missing', 'id');
    return this.publicPayout(payout);
  }

  private publicPayout(payout: Json & { account: string }): Json {
    const { account: _a, ...rest } = payout;
    return rest;
  }

  /** Moves a payout on as the banks do: in transit, paid, failed (returned) or canceled; or later (`delayDays`). */
  advancePayout(id: string, outcome: PayoutOutcome | 'delayed', delayDays = 10): Json {
    const payout = this.payouts.get(id);
    if (!payout) throw new PaymentError(404, 'invalid_request_error', `No such payout: '${id}'`, 'resource_missing', 'id');
    const previous: Json = { status: payout.status, arrival_date: payout.arrival_date };
    if (outcome === 'delayed') payout.arrival_date = (payout.arrival_date as number) + delayDays * DAY;
    else payout.status = outcome;
    if (outcome === 'failed') Object.assign(payout, { failure_code: 'account_closed', failure_message: 'The bank account has been closed.' });
    const type = outcome === 'paid' ? 'payout.paid' : outcome === 'failed' ? 'payout.failed' : outcome === 'canceled' ? 'payout.canceled' : 'payout.updated';
    this.ctx.emit(type, this.publicPayout(payout), previous, payout.account);
    return this.publicPayout(payout);
  }

  /** The REST routes of this part; undefined when the path is not one of them. */
  route(method: string, path: string[], params: Json, account: string | undefined): Json | undefined {
    const [resource, id, sub] = path;
    if (resource === 'payment_intents' && method === 'GET' && id) {
      const intent = this.intents.get(id);
      if (!intent) throw new PaymentError(404, 'invalid_request_error', `No such payment_intent: '${id}'`, 'resource_missing', 'id');
      return intent;
    }
    if (resource === 'refunds' && method === 'POST' && !id) return this.refund(params);
    if (resource === 'disputes' && method === 'GET' && id) {
      const dispute = this.disputes.get(id);
      if (!dispute) throw new PaymentError(404, 'invalid_request_error', `No such dispute: '${id}'`, 'resource_missing', 'id');
      return dispute;
    }
    if (resource === 'accounts' && method === 'POST' && !id) return this.createAccount(params);
    if (resource === 'accounts' && method === 'GET' && id && !sub) return this.account(id);
    if (resource === 'transfers' && method === 'POST' && !id) return this.createTransfer(params);
    if (resource === 'payouts' && method === 'POST' && !id) return this.createPayout(account, params);
    if (resource === 'payouts' && method === 'GET' && id) return this.payout(account, id);
    return undefined;
  }

  /** Every payout so far (tests pick the one to move on). */
  allPayouts(): Json[] {
    return [...this.payouts.values()].map((p) => ({ ...p }));
  }
}
