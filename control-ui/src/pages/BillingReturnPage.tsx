import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { finalizeCheckout, loadBilling } from '../actions/billing.ts';
import { ACCOUNT_SETTINGS_PATHS } from '../features/account-settings/paths.ts';

/**
 * Where Stripe's hosted checkout and portal return (`/billing`): back to Plan & Billing, the page
 * the creator left for Stripe (from the studio that page is a tab of its own, so the studio never
 * left the show); back from a completed checkout, the purchase is finalized there (spec §4 Checkout).
 */
export function BillingReturnPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const completed = params.get('checkout') === 'complete';
  useEffect(() => {
    // After a checkout nothing of the page before is left (the browser was on Stripe): finalizing
    // waits for any paid subscription, then says 'Subscription successful'.
    void (completed ? finalizeCheckout() : loadBilling());
    void navigate(ACCOUNT_SETTINGS_PATHS.plan, { replace: true });
  }, [completed, navigate]);
  return null;
}
