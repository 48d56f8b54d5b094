/** Server-rendered pages of the double's hosted checkout and customer portal. Every user text is escaped. */

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Minor units as a price reads (two decimals; Stripe's zero-decimal currencies are not sold here). */
export function formatAmount(minor: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(minor / 100);
}

export const formatDate = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 10);

const STYLE = `body{font-family:system-ui,sans-serif;background:#f6f7fb;color:#1a1f36;margin:0}
.banner{background:#ffd76a;color:#4a3800;padding:8px 16px;font-weight:600;text-align:center}
main{max-width:520px;margin:40px auto;background:#fff;border-radius:12px;padding:32px;box-shadow:0 2px 12px #0001}
h1{font-size:22px;margin:0 0 8px}h2{font-size:16px;margin:24px 0 8px}.muted{color:#6b7385}.error{color:#b42318;font-weight:600}
label{display:block;margin:16px 0 6px;font-weight:600}input{width:100%;box-sizing:border-box;padding:10px;border:1px solid #c9cdd8;border-radius:6px;font-size:16px}
button{margin-top:16px;padding:10px 16px;border:0;border-radius:6px;background:#635bff;color:#fff;font-size:15px;cursor:pointer}
button.secondary{background:#e8e9ef;color:#1a1f36}form.inline{display:inline}table{width:100%;border-collapse:collapse}td{padding:6px 0;border-bottom:1px solid #eee}`;

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><div class="banner">Test mode — Stripe double, no real payment</div><main>${body}</main></body></html>`;
}

export interface CheckoutView {
  id: string;
  planName: string;
  amount: string;
  interval: string;
  email: string | null;
  cancelUrl: string;
  error?: string;
}

export function checkoutPage(view: CheckoutView): string {
  return page(
    `Subscribe to ${view.planName}`,
    `<h1>Subscribe to ${escapeHtml(view.planName)}</h1>
<p><strong>${escapeHtml(view.amount)}</strong> per ${escapeHtml(view.interval)}</p>
${view.email ? `<p class="muted">${escapeHtml(view.email)}</p>` : ''}
${view.error ? `<p class="error" role="alert">${escapeHtml(view.error)}</p>` : ''}
<form method="post" action="/checkout/${escapeHtml(view.id)}">
<label for="card">Card number</label><input id="card" name="card" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" required>
<p class="muted">Test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined.</p>
<button type="submit">Subscribe</button></form>
<p><a href="${escapeHtml(view.cancelUrl)}">Back</a></p>`,
  );
}

export interface PaymentView {
  id: string;
  productName: string;
  amount: string;
  cancelUrl: string;
  error?: string;
}

/** The hosted page of a one-off payment (Checkout in payment mode): a tip. */
export function paymentPage(view: PaymentView): string {
  return page(
    `Pay ${view.amount}`,
    `<h1>${escapeHtml(view.productName)}</h1>
<p><strong>${escapeHtml(view.amount)}</strong></p>
${view.error ? `<p class="error" role="alert">${escapeHtml(view.error)}</p>` : ''}
<form method="post" action="/checkout/${escapeHtml(view.id)}">
<label for="card">Card number</label><input id="card" name="card" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" required>
<p class="muted">Test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined.</p>
<button type="submit">Pay ${escapeHtml(view.amount)}</button></form>
<p><a href="${escapeHtml(view.cancelUrl)}">Back</a></p>`,
  );
}

export interface PortalView {
  id: string;
  returnUrl: string;
  subscription?: {
    planName: string;
    amount: string;
    interval: string;
    status: string;
    periodEnd: string;
    cancelAtPeriodEnd: boolean;
    switchTo?: { priceId: string; label: string };
  };
  card: string | null;
  invoices: { id: string; date: string; amount: string; status: string }[];
}

export function portalPage(view: PortalView): string {
  const s = view.subscription;
  const action = (path: string, label: string, secondary = false, hidden = '') =>
    `<form class="inline" method="post" action="/portal/${escapeHtml(view.id)}/${path}">${hidden}<button type="submit"${secondary ? ' class="secondary"' : ''}>${escapeHtml(label)}</button></form>`;
  const subscription = s
    ? `<h2>Current plan</h2><p><strong>${escapeHtml(s.planName)}</strong> — ${escapeHtml(s.amount)} per ${escapeHtml(s.interval)} (${escapeHtml(s.status)})</p>
<p class="muted">${s.cancelAtPeriodEnd ? `Cancels on ${escapeHtml(s.periodEnd)}` : `Renews on ${escapeHtml(s.periodEnd)}`}</p>
${s.cancelAtPeriodEnd ? action('renew', 'Renew plan') : action('cancel', 'Cancel plan', true)}
${s.switchTo ? ' ' + action('switch', s.switchTo.label, true, `<input type="hidden" name="price" value="${escapeHtml(s.switchTo.priceId)}">`) : ''}`
    : '<h2>Current plan</h2><p class="muted">No active subscription.</p>';
  const invoices = view.invoices.length
    ? `<table>${view.invoices.map((i) => `<tr><td>${escapeHtml(i.date)}</td><td>${escapeHtml(i.amount)}</td><td>${escapeHtml(i.status)}</td><td><a href="/invoices/${escapeHtml(i.id)}">View</a></td></tr>`).join('')}</table>`
    : '<p class="muted">No invoices yet.</p>';
  return page(
    'Billing',
    `<h1>Billing</h1>${subscription}
<h2>Payment method</h2><p>${view.card ? `Card ending in ${escapeHtml(view.card)}` : 'None'}</p>
<form method="post" action="/portal/${escapeHtml(view.id)}/card"><label for="card">New card number</label><input id="card" name="card" inputmode="numeric" required><button type="submit" class="secondary">Update card</button></form>
<h2>Billing history</h2>${invoices}
<p><a href="${escapeHtml(view.returnUrl)}">Return to OnAir</a></p>`,
  );
}
