import nodemailer, { type Transporter } from 'nodemailer';
import { OnAirError } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import type { Mailer, OutgoingMail } from './mailer.ts';

interface SmtpError {
  code?: string;
  command?: string;
  responseCode?: number;
}

/** Sends through the SMTP server of SMTP_URL (smtp:// with STARTTLS when offered, smtps:// for TLS). */
export class SmtpMailer implements Mailer {
  readonly kind = 'smtp';
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
    private readonly logger: Logger,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(mail: OutgoingMail): Promise<void> {
    try {
      await this.transport.sendMail({
        from: this.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        ...(mail.headers ? { headers: mail.headers } : {}),
      });
    } catch (err) {
      const e = err as SmtpError;
      // The message carries a sign-in code or link: log only what failed, never the mail itself.
      const recipientRefused = e.command === 'RCPT TO' && (e.responseCode ?? 0) >= 500;
      const domain = mail.to.slice(mail.to.lastIndexOf('@') + 1);
      this.logger.warn({ code: e.code, command: e.command, responseCode: e.responseCode, recipientDomain: domain }, 'mail not sent');
      throw new OnAirError(recipientRefused ? 'EMAIL_UNDELIVERABLE' : 'MAIL_UNAVAILABLE');
    }
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
