import type Stripe from 'stripe';
import {
  currencySchema,
  DEFAULT_TIP_SETTINGS,
  formatMoney,
  OnAirError,
  tipAmountProblem,
  TIPS_NOT_AVAILABLE,
  type CreateTipBody,
  type TipPage,
  type TipSettings,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { EventsStore } from '../events/events-store.ts';
import type { Ledger, Tx } from './ledger.ts';
import { providerCall } from './stripe-client.ts';

/** The operator's switch of tipping for every creator (MoneySwitch key). */
export const TIPS_SWITCH = 'tips';

/**
 * Tips (partner spec §1, §3 Tip settings, §5, §9): a viewer pays on Stripe's hosted checkout, and
 * the signed webhook that says it was paid credits the creator's ledger once and puts a tip event
 * in the events feed of each of the creator's projects (alerts, overlays and chat alerts read it
 * there). A refund or a dispute takes the credit back; a dispute won gives it again.
 */
export class TipsService {
  constructor(
    private readonly deps: { db: Db; logger: Logger; ledger: Ledger; events: EventsStore; stripe: Stripe | undefined; publicUrl: string; testMode: boolean },
  ) {}

  async settings(channelId: string): Promise<TipSettings> {
    const row = await this.deps.db.tipSettings.findUnique({ where: { channelId } });
    if (!row) return DEFAULT_TIP_SETTINGS;
    return {
      enabled: row.enabled,
      paymentEmail: row.paymentEmail,
      currency: currencySchema.catch('usd').parse(row.currency),
      minTip: row.minTip,
      maxTip: row.maxTip,
    };
  }

  async saveSettings(channelId: string, settings: TipSettings): Promise<TipSettings> {
    await this.deps.db.tipSettings.upsert({ where: { channelId }, create: { channelId, ...settings }, update: settings });
    this.deps.logger.info({ audit: 'tip-settings-saved', channelId, enabled: settings.enabled }, 'tip settings saved');
    return this.settings(channelId);
  }

  async setAvailability(available: boolean, reason: string): Promise<{ available: boolean; reason: string }> {
    await this.deps.db.moneySwitch.upsert({
      where: { id: TIPS_SWITCH },
      create: { id: TIPS_SWITCH, on: available, reason },
      update: { on: available, reason },
    });
    this.deps.logger.info({ audit: 'tips-availability', available }, available ? 'tips switched on' : 'tips switched off');
    return { available, reason };
  }

  /** The public tip page; each view counts as an impression for Statistics. */
  async page(creatorId: string, countImpression = true): Promise<TipPage> {
    const creator = await this.deps.db.user.findFirst({
      where: { id: creatorId, deactivatedAt: null },
      select: { id: true, name: true, partnerProfile: { select: { username: true } } },
    });
    if (!creator) throw new OnAirError('NOT_FOUND', 'There is no creator at this address.');
    const settings = await this.settings(creatorId);
    const operator = await this.deps.db.moneySwitch.findUnique({ where: { id: TIPS_SWITCH } });
    let unavailableReason: string | null = null;
    if (operator && !operator.on) unavailableReason = operator.reason || 'Tipping is paused for maintenance. Please try again later.';
    else if (!this.deps.stripe) unavailableReason = 'This server takes no payments.';
    else if (!settings.enabled) unavailableReason = 'This creator does not take tips right now.';
    if (countImpression) await this.deps.db.tipPageHit.create({ data: { channelId: creatorId, kind: 'impression' } });
    return {
      channelId: creatorId,
      creatorName: creator.partnerProfile?.username ?? (creator.name || 'this creator'),
      available: unavailableReason === null,
      unavailableReason,
      currency: settings.currency,
      minTip: settings.minTip,
      maxTip: settings.maxTip,
      testMode: this.deps.testMode,
    };
  }

  /** A viewer's tip: checked against the creator's limits, then Stripe's hosted checkout page. */
  async checkout(creatorId: string, body: CreateTipBody): Promise<{ url: string; tipId: string }> {
    const page = await this.page(creatorId, false);
    if (!page.available) throw new OnAirError('TIPS_NOT_AVAILABLE', TIPS_NOT_AVAILABLE, { reason: page.unavailableReason });
    const problem = tipAmountProblem(body.amount, page);
    if (problem) throw new OnAirError('TIP_AMOUNT_INVALID', problem, { field: 'amount', minTip: page.minTip, maxTip: page.maxTip, currency: page.currency });
    const tip = await this.deps.db.tip.create({
      data: { channelId: creatorId, tipperName: body.name, message: body.message, amount: body.amount, currency: page.currency },
    });
    await this.deps.db.tipPageHit.create({ data: { channelId: creatorId, kind: 'click' } });
    const base = this.deps.publicUrl.replace(/\/+$/, '');
    const metadata = { kind: 'tip', tipId: tip.id, channelId: creatorId };
    const stripe = this.deps.stripe!;
    const session = await providerCall(this.deps.logger, 'BILLING_PROVIDER_FAILED', 'tip checkout', () =>
      stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            { quantity: 1, price_data: { currency: page.currency, unit_amount: body.amount, product_data: { name: `Tip for ${page.creatorName}` } } },
          ],
          metadata,
          payment_intent_data: { metadata },
          client_reference_id: tip.id,
          success_url: `${base}/tip/${encodeURIComponent(creatorId)}?tip=${tip.id}`,
          cancel_url: `${base}/tip/${encodeURIComponent(creatorId)}`,
        },
        { idempotencyKey: `onair-tip-${tip.id}` },
      ),
    );
    if (!session.url) throw new OnAirError('BILLING_PROVIDER_FAILED');
    await this.deps.db.tip.update({ where: { id: tip.id }, data: { checkoutId: session.id } });
    this.deps.logger.info({ channelId: creatorId, tipId: tip.id, amount: body.amount, currency: page.currency }, 'tip checkout opened');
    return { url: session.url, tipId: tip.id };
  }

  /** Whether a webhook event is one of the tips'. */
  handles(event: Stripe.Event): boolean {
    switch (event.type) {
      case 'checkout.session.completed':
        return event.data.object.metadata?.kind === 'tip';
      case 'charge.refunded':
        return event.data.object.metadata.kind === 'tip';
      case 'charge.dispute.created':
      case 'charge.dispute.closed':
        return true;
      default:
        return false;
    }
  }

  /** Applies a tip's webhook inside the caller's transaction; returns what to announce after commit. */
  async apply(tx: Tx, event: Stripe.Event): Promise<(() => Promise<void>) | undefined> {
    if (event.type === 'checkout.session.completed') {
      const session = event.data.object;
      if (session.payment_status !== 'paid') return undefined;
      const tipId = session.metadata?.tipId ?? '';
      const tip = await tx.tip.findFirst({ where: { id: tipId, checkoutId: session.id } });
      if (!tip || tip.status !== 'pending') return undefined;
      const intent = typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);
      const paidAt = new Date(event.created * 1000);
      await tx.tip.update({ where: { id: tip.id }, data: { status: 'paid', paymentIntentId: intent, paidAt } });
      const credited = await this.deps.ledger.append(tx, {
        channelId: tip.channelId,
        kind: 'tip',
        amount: tip.amount,
        currency: tip.currency,
        description: `Tip from ${tip.tipperName}`,
        tipId: tip.id,
        providerEventId: event.id,
      });
      if (!credited) return undefined;
      return () => this.announce(tip.channelId, { ...tip, paidAt });
    }
    if (event.type === 'charge.refunded') {
      const charge = event.data.object;
      const tip = await this.tipOfIntent(tx, charge.payment_intent);
      if (!tip) return undefined;
      const before = (event.data.previous_attributes as { amount_refunded?: number } | undefined)?.amount_refunded ?? 0;
      const refunded = Math.min(charge.amount_refunded - before, tip.amount);
      if (refunded <= 0) return undefined;
      await this.deps.ledger.append(tx, {
        channelId: tip.channelId,
        kind: 'tip_refund',
        amount: -refunded,
        currency: tip.currency,
        description: `Refund of the tip from ${tip.tipperName}`,
        tipId: tip.id,
        providerEventId: event.id,
      });
      if (charge.refunded) await tx.tip.update({ where: { id: tip.id }, data: { status: 'refunded' } });
      return undefined;
    }
    if (event.type === 'charge.dispute.created' || event.type === 'charge.dispute.closed') {
      const dispute = event.data.object;
      const tip = await this.tipOfIntent(tx, dispute.payment_intent);
      if (!tip) return undefined;
      if (event.type === 'charge.dispute.created') {
        // Stripe withdraws the disputed amount at once: so does the ledger.
        await this.deps.ledger.append(tx, {
          channelId: tip.channelId,
          kind: 'tip_dispute',
          amount: -dispute.amount,
          currency: tip.currency,
          description: `Chargeback of the tip from ${tip.tipperName}`,
          tipId: tip.id,
          providerEventId: event.id,
        });
        await tx.tip.update({ where: { id: tip.id }, data: { status: 'disputed' } });
      } else if (dispute.status === 'won') {
        const reversed = await tx.ledgerEntry.count({ where: { tipId: tip.id, kind: 'tip_dispute' } });
        if (reversed === 0) return undefined;
        await this.deps.ledger.append(tx, {
          channelId: tip.channelId,
          kind: 'tip_dispute_won',
          amount: dispute.amount,
          currency: tip.currency,
          description: `Chargeback won: tip from ${tip.tipperName}`,
          tipId: tip.id,
          providerEventId: event.id,
        });
        await tx.tip.update({ where: { id: tip.id }, data: { status: 'paid' } });
      }
      return undefined;
    }
    return undefined;
  }

  private async tipOfIntent(
    tx: Tx,
    intent: string | Stripe.PaymentIntent | null,
  ): Promise<{ id: string; channelId: string; amount: number; currency: string; tipperName: string } | null> {
    const id = typeof intent === 'string' ? intent : intent?.id;
    if (!id) return null;
    return tx.tip.findUnique({ where: { paymentIntentId: id }, select: { id: true, channelId: true, amount: true, currency: true, tipperName: true } });
  }

  /** A paid tip in the events feed of every project of the creator (stored once per project and tip). */
  private async announce(
    channelId: string,
    tip: { id: string; tipperName: string; message: string; amount: number; currency: string; paidAt: Date },
  ): Promise<void> {
    const projects = await this.deps.db.project.findMany({ where: { ownerId: channelId }, select: { id: true } });
    for (const project of projects) {
      await this.deps.events.store({ id: null, projectId: project.id, platform: 'onair' }, [
        {
          platformEventId: `tip:${tip.id}`,
          type: 'tip',
          platformUsername: tip.tipperName,
          platformUserId: null,
          avatar: null,
          value: tip.amount / 100,
          data: { currency: tip.currency.toUpperCase(), ...(tip.message ? { message: tip.message } : {}) },
          platformCreatedAt: tip.paidAt,
          replay: false,
          suppressed: false,
        },
      ]);
    }
    this.deps.logger.info({ channelId, tipId: tip.id, amount: formatMoney(tip.amount, tip.currency), projects: projects.length }, 'tip paid');
  }
}
