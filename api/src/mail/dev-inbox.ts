import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { CapturedMessage } from '@onair/protocol';
import type { Mailer, OutgoingMail } from './mailer.ts';

const INBOX_KEY = 'onair:dev-inbox';
const KEEP = 200;
const TTL_SECONDS = 24 * 3600;

/**
 * Mail and SMS that an installation without a mail server (the embedded default) keeps instead
 * of sending, so a newcomer signs in by reading the code at /dev/inbox. It lives in Redis so
 * every api replica shows the same inbox; only the newest messages are kept, for a day.
 */
export class DevInbox {
  constructor(private readonly redis: Redis) {}

  async capture(message: Omit<CapturedMessage, 'id' | 'sentAt'>): Promise<void> {
    const stored: CapturedMessage = { id: randomUUID(), sentAt: new Date().toISOString(), ...message };
    await this.redis
      .multi()
      .lpush(INBOX_KEY, JSON.stringify(stored))
      .ltrim(INBOX_KEY, 0, KEEP - 1)
      .expire(INBOX_KEY, TTL_SECONDS)
      .exec();
  }

  /** Newest first; `to` filters by recipient (case-insensitive). */
  async list(to?: string): Promise<CapturedMessage[]> {
    const raw = await this.redis.lrange(INBOX_KEY, 0, KEEP - 1);
    const messages = raw.map((r) => JSON.parse(r) as CapturedMessage);
    const wanted = to?.trim().toLowerCase();
    return wanted ? messages.filter((m) => m.to.toLowerCase() === wanted) : messages;
  }
}

export class DevInboxMailer implements Mailer {
  readonly kind = 'dev-inbox';
  constructor(private readonly inbox: DevInbox) {}

  async send(mail: OutgoingMail): Promise<void> {
    await this.inbox.capture({ channel: 'email', to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
  }

  async close(): Promise<void> {}
}
