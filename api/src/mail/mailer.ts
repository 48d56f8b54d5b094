/** One message of OnAir's own mail (sign-in codes, links, e-mail change). */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe of the mails a preference governs). */
  headers?: Record<string, string>;
}

/**
 * Where OnAir's mail goes: an SMTP server in production, the development inbox otherwise. A
 * sender throws an OnAirError: EMAIL_UNDELIVERABLE when the recipient's server refuses the
 * address (the user's fault), MAIL_UNAVAILABLE when our own mail server fails (ours).
 */
export interface Mailer {
  readonly kind: 'smtp' | 'dev-inbox';
  send(mail: OutgoingMail): Promise<void>;
  close(): Promise<void>;
}
