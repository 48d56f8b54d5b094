import { AlertTriangle, Check, CreditCard, ExternalLink, FlaskConical, Loader2 } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { planDisplayNames, type BillingOverview, type PlanId, type PlanPrice } from '@onair/protocol';
import { askToCancel, changeCancellation, chooseInterval, loadBilling, openBillingPortal, upgrade } from '../../actions/billing.ts';
import { Button } from '../../components/Button.tsx';
import { CANCEL_LOSSES, formatBillingDate, formatPrice, offerOf, perMonth, yearlySavings } from '../../model/billing.ts';
import { useBillingStore, useSessionStore } from '../../stores/index.ts';
import dialogStyles from './AccountSettingsPage.module.css';
import styles from './PlanPage.module.css';

/** What each plan gives, in a creator's words (from the entitlements of spec §6). */
const PLAN_FEATURES: Record<PlanId, string[]> = {
  Free: ['720p at 30 fps', 'Up to 2 destinations at once', '3 scenes', 'The OnAir logo on your stream'],
  Premium: [
    '1080p at 30 fps',
    'Unlimited destinations',
    '20 scenes',
    'Your own logo, backgrounds and starting, ending and be-right-back screens',
    'Up to 10 guests',
    'Third-party integrations',
  ],
  VIP: ['Everything in Premium', 'Granted by the OnAir team'],
  Legacy: ['1080p at 30 fps', 'Your plan from the older studio'],
};

/** Spec §2 Plan & Billing page: what it shows depends on the signed-in user's plan (role). */
export function PlanPage() {
  const signedIn = useSessionStore((s) => s.loggedIn);
  const { status, overview, busy } = useBillingStore();
  useEffect(() => {
    if (signedIn) void loadBilling();
  }, [signedIn]);

  return (
    <section aria-labelledby="plan-page-heading" className={styles.page}>
      <h2 id="plan-page-heading" className={dialogStyles.heading}>
        Plan &amp; Billing
      </h2>
      {overview?.testMode && (
        <p className={styles.testMode} role="note">
          <FlaskConical size={16} aria-hidden />
          <span>
            <strong>Test mode.</strong> Payments go to this server&apos;s Stripe double: no real money is charged. Pay with test card 4242 4242 4242 4242.
          </span>
        </p>
      )}
      {busy === 'finalizing' && (
        <p className={styles.status} role="status">
          <Loader2 size={16} className={styles.spin} aria-hidden />
          Finalizing your purchase...
        </p>
      )}
      {status === 'failed' ? (
        <div className={styles.failed} role="alert">
          <p>Failed to load plan details</p>
          <Button onClick={() => void loadBilling()}>Try again</Button>
        </div>
      ) : !overview ? (
        <p className={styles.status} role="status">
          <Loader2 size={16} className={styles.spin} aria-hidden />
          Loading your plan…
        </p>
      ) : !overview.available ? (
        <p className={styles.muted}>Plans cannot be bought on this server: billing is not set up. You are on the {planDisplayNames[overview.role]} plan.</p>
      ) : overview.role === 'Free' ? (
        <FreePlan overview={overview} />
      ) : (
        <PaidPlan overview={overview} />
      )}
    </section>
  );
}

function FreePlan({ overview }: { overview: BillingOverview }) {
  const { interval, busy } = useBillingStore();
  const offer = offerOf(overview.plans, 'Premium');
  const price = interval === 'year' ? offer.yearly : offer.monthly;
  const savings = yearlySavings(offer);
  return (
    <>
      <h3 className={styles.headline}>Power up your live streams</h3>
      <div className={styles.periods} role="group" aria-label="Billing period">
        <button type="button" aria-pressed={interval === 'month'} onClick={() => chooseInterval('month')}>
          Monthly
        </button>
        <button type="button" aria-pressed={interval === 'year'} onClick={() => chooseInterval('year')}>
          Annually
        </button>
        {savings > 0 && offer.monthly && <span className={styles.savings}>Save {formatPrice(savings, offer.monthly.currency)} a year with annual billing</span>}
      </div>
      <div className={styles.cards}>
        <PlanCard planId="Free" price={`${formatPrice(0, price?.currency ?? 'usd')} / month`} badge="Your plan" />
        {price && (
          <PlanCard planId="Premium" price={`${perMonth(price)} / month`} caption={billedAs(price)}>
            <Button variant="primary" disabled={busy !== null} onClick={() => void upgrade(price.priceId)}>
              {busy === 'checkout' ? 'Opening checkout…' : 'Upgrade'}
            </Button>
          </PlanCard>
        )}
      </div>
      {overview.hasBillingHistory && <BillingHistoryLink />}
    </>
  );
}

function PaidPlan({ overview }: { overview: BillingOverview }) {
  const { busy, confirmingCancel } = useBillingStore();
  const subscription = overview.subscription;
  const plan = overview.role;
  const name = planDisplayNames[plan];
  const price = overview.plans.find((p) => p.priceId === subscription?.priceId);
  const ending = subscription?.status === 'non_renewing';
  return (
    <>
      <div className={styles.cards}>
        <PlanCard planId={plan} price={price ? `${formatPrice(price.unitAmount, price.currency)} / ${price.interval}` : ''} badge="Your plan">
          {plan === 'Legacy' && overview.classicStudioUrl && (
            <a className={styles.link} href={overview.classicStudioUrl} target="_blank" rel="noreferrer">
              Open Studio Classic <ExternalLink size={14} aria-hidden />
            </a>
          )}
        </PlanCard>
      </div>
      {subscription && plan === 'Premium' && (
        <div className={styles.details}>
          {ending ? (
            <div className={styles.warning} role="status">
              <AlertTriangle size={16} aria-hidden />
              <span>
                Your {name} plan will end {subscription.nextBillingAt ? formatBillingDate(subscription.nextBillingAt) : 'at the end of this term'}.
              </span>
              <Button variant="primary" disabled={busy !== null} onClick={() => void changeCancellation(false)}>
                {busy === 'renewing' ? 'Renewing...' : 'Renew'}
              </Button>
            </div>
          ) : (
            <dl className={styles.facts}>
              <dt>Next billing date</dt>
              <dd>{subscription.nextBillingAt ? formatBillingDate(subscription.nextBillingAt) : '—'}</dd>
              <dt>Renewal period</dt>
              <dd>{subscription.periodUnit === 'year' ? 'Every year' : 'Every month'}</dd>
            </dl>
          )}
          <div className={styles.actions}>
            <Button disabled={busy !== null} onClick={() => void openBillingPortal()}>
              <CreditCard size={16} aria-hidden /> Payment Method
            </Button>
            <Button disabled={busy !== null} onClick={() => void openBillingPortal()}>
              Billing History
            </Button>
            <Button disabled={busy !== null} onClick={() => void openBillingPortal()}>
              {subscription.periodUnit === 'year' ? 'Switch to Monthly Billing' : 'Switch to Annual Billing'}
            </Button>
            {!ending && (
              <Button variant="ghost" className={styles.danger} disabled={busy !== null} onClick={() => askToCancel(true)}>
                Cancel {name} Plan
              </Button>
            )}
          </div>
          {confirmingCancel && <CancelConfirmation plan={name} />}
        </div>
      )}
      {plan !== 'Premium' && overview.hasBillingHistory && <BillingHistoryLink />}
    </>
  );
}

function CancelConfirmation({ plan }: { plan: string }) {
  const busy = useBillingStore((s) => s.busy);
  // It opens below the plan's buttons: bring it into view.
  const shown = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // In braces: Chromium's scrollIntoView now returns a promise, which React would take for a cleanup.
    void shown.current?.scrollIntoView({ block: 'nearest' });
  }, []);
  return (
    <div ref={shown} className={styles.confirm} role="alertdialog" aria-labelledby="cancel-heading" aria-describedby="cancel-caption">
      <h3 id="cancel-heading">Are you sure?</h3>
      <p>Without {plan} you lose:</p>
      <ul>
        {CANCEL_LOSSES.map((loss) => (
          <li key={loss}>{loss}</li>
        ))}
      </ul>
      <details className={styles.compare}>
        <summary>Compare plans</summary>
        <div className={styles.cards}>
          <PlanCard planId="Free" price={formatPrice(0, 'usd')} />
          <PlanCard planId="Premium" price={plan} />
        </div>
      </details>
      <p id="cancel-caption" className={styles.muted}>
        You will lose access to your {plan} plan at the end of your current term.
      </p>
      <div className={styles.actions}>
        <Button variant="secondary" onClick={() => askToCancel(false)} disabled={busy !== null}>
          Keep my plan
        </Button>
        <Button variant="primary" className={styles.dangerSolid} onClick={() => void changeCancellation(true)} disabled={busy !== null}>
          {busy === 'cancelling' ? 'Cancelling...' : `Cancel ${plan} Plan`}
        </Button>
      </div>
    </div>
  );
}

function PlanCard({
  planId,
  price,
  badge,
  caption,
  children,
}: {
  planId: PlanId;
  price: string;
  badge?: string;
  caption?: string;
  children?: React.ReactNode;
}) {
  return (
    <article className={styles.card} aria-label={`${planDisplayNames[planId]} plan`}>
      <header className={styles.cardHeader}>
        <h4>{planDisplayNames[planId]}</h4>
        {badge && <span className={styles.badge}>{badge}</span>}
      </header>
      <p className={styles.price}>{price}</p>
      {caption && <p className={styles.muted}>{caption}</p>}
      <ul className={styles.features}>
        {PLAN_FEATURES[planId].map((feature) => (
          <li key={feature}>
            <Check size={14} aria-hidden /> {feature}
          </li>
        ))}
      </ul>
      {children}
    </article>
  );
}

function BillingHistoryLink() {
  const busy = useBillingStore((s) => s.busy);
  return (
    <Button variant="ghost" className={styles.history} disabled={busy !== null} onClick={() => void openBillingPortal()}>
      Billing History
    </Button>
  );
}

const billedAs = (price: PlanPrice) => (price.interval === 'year' ? `Billed ${formatPrice(price.unitAmount, price.currency)} once a year` : 'Billed monthly');
