import { createHmac } from 'node:crypto';

/** What Stripe puts in `Stripe-Signature`: the time it signed and the HMAC-SHA256 of `t.body` with the endpoint's secret. */
export function signPayload(payload: string, secret: string, timestampSeconds: number): string {
  const signature = createHmac('sha256', secret).update(`${timestampSeconds}.${payload}`).digest('hex');
  return `t=${timestampSeconds},v1=${signature}`;
}

export interface WebhookDelivery {
  eventId: string;
  endpoint: string;
  attempt: number;
  /** HTTP status, or 0 when the endpoint could not be reached. */
  status: number;
  at: number;
}

/**
 * Sends events to the webhook endpoints as Stripe does: a JSON POST signed with the endpoint
 * secret at the moment of sending, retried after a failure (any non-2xx answer or no answer) with
 * the given delays. Each send is independent, so events may arrive out of order, as with Stripe.
 */
export class WebhookSender {
  readonly deliveries: WebhookDelivery[] = [];
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly endpoints: readonly string[],
    private readonly secret: string,
    private readonly retryDelaysMs: readonly number[],
    private readonly nowSeconds: () => number,
  ) {}

  send(event: { id: string }): void {
    for (const endpoint of this.endpoints) {
      const sending = this.deliver(endpoint, event, 1);
      this.pending.add(sending);
      void sending.finally(() => this.pending.delete(sending));
    }
  }

  /** Resolves once every delivery under way (retries included) has ended. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private async deliver(endpoint: string, event: { id: string }, attempt: number): Promise<void> {
    const payload = JSON.stringify(event, null, 2);
    let status: number;
    try {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signPayload(payload, this.secret, this.nowSeconds()),
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks) OnAir test double',
        },
        body: payload,
        signal: AbortSignal.timeout(10_000),
      });
      status = response.status;
      await response.arrayBuffer();
    } catch {
      status = 0;
    }
    this.deliveries.push({ eventId: event.id, endpoint, attempt, status, at: Date.now() });
    if (status >= 200 && status < 300) return;
    const delay = this.retryDelaysMs[attempt - 1];
    if (delay === undefined) return;
    await new Promise((resolve) => setTimeout(resolve, delay));
    await this.deliver(endpoint, event, attempt + 1);
  }
}
