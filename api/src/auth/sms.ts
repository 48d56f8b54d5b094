import { OnAirError } from '@onair/protocol';
import type { DevInbox } from '../mail/dev-inbox.ts';

/**
 * How an SMS code leaves OnAir. Pluggable so an operator can put any gateway behind it; the
 * embedded default keeps messages in the development inbox.
 */
export interface SmsSender {
  send(to: string, text: string): Promise<void>;
}

export class DevInboxSmsSender implements SmsSender {
  constructor(private readonly inbox: DevInbox) {}

  async send(to: string, text: string): Promise<void> {
    await this.inbox.capture({ channel: 'sms', to, subject: 'SMS', text, html: null });
  }
}

/** POSTs {to, text} as JSON to a gateway (SMS_WEBHOOK_URL); any non-2xx is a service fault. */
export class WebhookSmsSender implements SmsSender {
  constructor(private readonly url: string) {}

  async send(to: string, text: string): Promise<void> {
    const res = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to, text }),
      signal: AbortSignal.timeout(10_000),
    }).catch(() => null);
    if (!res?.ok) throw new OnAirError('DEPENDENCY_UNAVAILABLE', 'We could not send the SMS right now. Please try again in a moment.');
  }
}
