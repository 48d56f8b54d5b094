import { emailPreferenceLabels, UNSUBSCRIBE_PATH, type EmailPreferenceKind } from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { Mailer } from '../mail/mailer.ts';
import { escapeHtml, withFooter } from '../mail/templates.ts';
import type { UnsubscribeTokens } from './unsubscribe-token.ts';

export interface PreferenceMail {
  subject: string;
  text: string;
  html: string;
}

export type PreferenceSendResult = 'sent' | 'opted-out' | 'no-recipient' | 'failed';

/** The switch of Settings › Email notifications that governs each kind (partner_profiles' columns). */
const column = { digest: 'notifyDigest', productUpdates: 'notifyProductUpdates', partnerNews: 'notifyPartnerNews' } as const;

/**
 * Every mail governed by a switch of Settings › Email notifications goes through here: it is sent
 * only while the account's switch for its kind is on (on until turned off, as Settings shows it),
 * never to a deactivated account, and it carries the unsubscribe link of its kind in the text, the
 * HTML and the List-Unsubscribe headers (RFC 2369, one-click per RFC 8058). A mail that cannot go
 * out is logged and reported, never thrown: what caused it (an invitation, a digest run) stands.
 */
export class PreferenceMailer {
  constructor(private readonly deps: { db: Db; mailer: Mailer; tokens: UnsubscribeTokens; publicUrl: string; logger: Logger }) {}

  unsubscribeUrl(userId: string, kind: EmailPreferenceKind): string {
    return `${this.deps.publicUrl}${UNSUBSCRIBE_PATH}?token=${this.deps.tokens.sign(userId, kind)}`;
  }

  /** Whether the account wants mail of this kind now. */
  async wants(userId: string, kind: EmailPreferenceKind): Promise<{ email: string } | null> {
    const user = await this.deps.db.user.findUnique({
      where: { id: userId },
      select: { email: true, deactivatedAt: true, partnerProfile: { select: { [column[kind]]: true } } },
    });
    if (!user || user.deactivatedAt) return null;
    const on = (user.partnerProfile as Record<string, boolean> | null)?.[column[kind]] ?? true;
    return on ? { email: user.email } : null;
  }

  async send(userId: string, kind: EmailPreferenceKind, mail: PreferenceMail): Promise<PreferenceSendResult> {
    const recipient = await this.wants(userId, kind);
    if (!recipient) {
      const exists = await this.deps.db.user.count({ where: { id: userId, deactivatedAt: null } });
      return exists ? 'opted-out' : 'no-recipient';
    }
    const url = this.unsubscribeUrl(userId, kind);
    const label = emailPreferenceLabels[kind];
    try {
      await this.deps.mailer.send({
        to: recipient.email,
        subject: mail.subject,
        text: `${mail.text.trimEnd()}\n\n—\nYou get ${label} as chosen in Settings › Email notifications. Unsubscribe from ${label}: ${url}\n`,
        html: withFooter(
          mail.html,
          `You get ${escapeHtml(label)} as chosen in Settings › Email notifications. <a href="${escapeHtml(url)}" style="color:#8b90a0">Unsubscribe from ${escapeHtml(label)}</a>.`,
        ),
        headers: { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      });
      return 'sent';
    } catch (err) {
      this.deps.logger.warn({ kind, userId, err: (err as Error).message }, 'preference mail not sent');
      return 'failed';
    }
  }
}
