import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';

/**
 * Settings › Email notifications (spec §3 Account): the three kinds of mail a creator can turn off.
 * Every mail of one of these kinds carries an unsubscribe link for that kind, signed by the server,
 * which works without signing in.
 */
export const emailPreferenceKinds = ['digest', 'productUpdates', 'partnerNews'] as const;
export type EmailPreferenceKind = (typeof emailPreferenceKinds)[number];

export const emailPreferenceLabels: Record<EmailPreferenceKind, string> = {
  digest: 'the weekly digest',
  productUpdates: 'product updates',
  partnerNews: 'partner news',
};

/** The unsubscribe page (GET: a confirmation with one button) and its action (POST, also RFC 8058 one-click). */
export const UNSUBSCRIBE_PATH = '/api/v1/public/unsubscribe';
/** A token is `<base64url payload>.<base64url HMAC>`; the payload names the account and the kind. */
export const unsubscribeQuerySchema = z.object({
  token: z
    .string()
    .min(10)
    .max(400)
    .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/),
});

/** The weekly digest covers the seven days before it is sent. */
export const DIGEST_WINDOW_DAYS = 7;
/** When the digest goes out by default: Mondays at 09:00 UTC (a cron pattern for BullMQ's job scheduler). */
export const DIGEST_DEFAULT_CRON = '0 9 * * 1';
/** At most this many campaign offers are listed in one digest. */
export const DIGEST_MAX_OFFERS = 5;

/** Mail the operators send to creators: product updates or partner news, each under its switch. */
export const announcementKinds = ['productUpdates', 'partnerNews'] as const satisfies readonly EmailPreferenceKind[];
export const announcementBodySchema = z.object({
  kind: z.enum(announcementKinds, 'Choose product updates or partner news'),
  subject: z.string().trim().min(1, 'This field is required').max(128),
  text: z.string().trim().min(1, 'This field is required').max(4000),
});
export type AnnouncementBody = z.infer<typeof announcementBodySchema>;
export const announcementResultSchema = z.object({
  /** Accounts mailed. */
  sent: z.number().int(),
  /** Accounts whose switch for this kind is off. */
  optedOut: z.number().int(),
  failed: z.number().int(),
});

export const sendAnnouncementEndpoint = defineEndpoint({
  id: 'adminSendAnnouncement',
  method: 'post',
  path: '/api/v1/admin/announcements',
  summary: 'Admin portal: mail a product update or partner news to every creator whose switch for it is on (each mail has its unsubscribe link).',
  tag: 'notifications',
  access: 'admin',
  body: announcementBodySchema,
  response: announcementResultSchema,
});

export const notificationEndpoints = [sendAnnouncementEndpoint] as const;
