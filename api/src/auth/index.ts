import type { Redis } from 'ioredis';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import { DevInbox, DevInboxMailer } from '../mail/dev-inbox.ts';
import type { Mailer } from '../mail/mailer.ts';
import { SmtpMailer } from '../mail/smtp-mailer.ts';
import { createAuth, type Auth } from './auth.ts';
import type { AuthConfig } from './config.ts';
import { DevInboxSmsSender, WebhookSmsSender, type SmsSender } from './sms.ts';

export { authHandler } from './router.ts';
export { resolveSessionUserId } from './session.ts';
export type { Auth } from './auth.ts';

export interface Accounts {
  auth: Auth;
  mailer: Mailer;
  sms: SmsSender;
  inbox: DevInbox;
}

/** Sign-in with its mail and SMS senders: SMTP and the SMS gateway when configured, the development inbox otherwise. */
export function createAccounts(deps: { config: AuthConfig & { PUBLIC_URL: string }; db: Db; redis: Redis; logger: Logger }): Accounts {
  const inbox = new DevInbox(deps.redis);
  const mailer = deps.config.SMTP_URL ? new SmtpMailer(deps.config.SMTP_URL, deps.config.MAIL_FROM, deps.logger) : new DevInboxMailer(inbox);
  const sms = deps.config.SMS_WEBHOOK_URL ? new WebhookSmsSender(deps.config.SMS_WEBHOOK_URL) : new DevInboxSmsSender(inbox);
  const auth = createAuth({ ...deps, mailer, sms });
  return { auth, mailer, sms, inbox };
}
