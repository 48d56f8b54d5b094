import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { openAccountSettings } from '../actions/account-settings.ts';
import { finalizeCheckout, loadBilling } from '../actions/billing.ts';

/**
 * Where Stripe's hosted checkout and portal return (`/billing`): the home page with Plan & Billing
 * open; back from a completed checkout, the purchase is finalized there (spec §4 Checkout).
 */
export function BillingReturnPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const completed = params.get('checkout') === 'complete';
  useEffect(() => {
    openAccountSettings('plan');
    // After a checkout nothing of the page before is left (the browser was on Stripe): finalizing
    // waits for any paid subscription, then says 'Subscription successful'.
    void (completed ? finalizeCheckout() : loadBilling());
    void navigate('/', { replace: true });
  }, [completed, navigate]);
  return null;
}
