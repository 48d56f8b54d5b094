import { randomBytes } from 'node:crypto';
import { Router, type RequestHandler, type Response } from 'express';
import helmet from 'helmet';
import {
  emailPreferenceLabels,
  OnAirError,
  sendAnnouncementEndpoint,
  UNSUBSCRIBE_PATH,
  unsubscribeQuerySchema,
  type EmailPreferenceKind,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import { authenticate, getCurrentUser, type SessionResolver } from '../http/auth-context.ts';
import { bodyParsing } from '../http/body.ts';
import { mount } from '../http/mount.ts';
import { escapeHtml } from '../mail/templates.ts';
import type { Announcements } from './announcements.ts';
import type { UnsubscribeTokens } from './unsubscribe-token.ts';

const column = { digest: 'notifyDigest', productUpdates: 'notifyProductUpdates', partnerNews: 'notifyPartnerNews' } as const;

function page(res: Response, status: number, title: string, body: string): void {
  const nonce = res.locals.cspNonce as string;
  res
    .status(status)
    .set({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
    .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">
<title>${escapeHtml(title)} · OnAir</title><style nonce="${nonce}">body{margin:0;background:#0f1115;font-family:system-ui,sans-serif;color:#e8eaf0}
main{max-width:480px;margin:64px auto;padding:32px;background:#181b22;border-radius:12px}h1{font-size:20px}p{line-height:1.5}
button{padding:12px 20px;background:#e5484d;color:#fff;border:0;border-radius:8px;font-weight:600;font-size:15px;cursor:pointer}.muted{color:#8b90a0;font-size:13px}</style></head>
<body><main><div><strong>OnAir</strong></div><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`);
}

/** A strict policy: no script, styles by nonce, the form posts only back here. */
const strictPage: RequestHandler[] = [
  (_req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString('base64');
    next();
  },
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        styleSrc: [(_req, res) => `'nonce-${(res as unknown as { locals: { cspNonce: string } }).locals.cspNonce}'`],
        formAction: ["'self'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
  }),
];

/**
 * The unsubscribe link of every preference mail, without signing in. GET shows what the link will
 * turn off and one button (a mail scanner that follows links must not unsubscribe anyone); the
 * button's POST — or a mail client's RFC 8058 one-click POST — turns the switch off. A forged or
 * altered token changes nothing and is answered 404. Mounted before the JSON parser: the one-click
 * POST is a form body.
 */
export function unsubscribeRoutes(deps: { db: Db; tokens: UnsubscribeTokens; publicUrl: string; logger: Logger; authMaxBodyBytes: number }): Router {
  const router = Router();
  router.use(UNSUBSCRIBE_PATH, strictPage, ...bodyParsing({ limitBytes: deps.authMaxBodyBytes, forms: true }));

  const verified = async (query: unknown): Promise<{ userId: string; kind: EmailPreferenceKind } | null> => {
    const parsed = unsubscribeQuerySchema.safeParse(query);
    const claim = parsed.success ? deps.tokens.verify(parsed.data.token) : null;
    if (!claim) return null;
    return (await deps.db.user.count({ where: { id: claim.userId } })) > 0 ? claim : null;
  };
  const invalid = (res: Response) =>
    page(res, 404, 'This link does not work', '<p>This unsubscribe link is not valid. Change what OnAir mails you in Settings › Email notifications.</p>');

  router.get(UNSUBSCRIBE_PATH, async (req, res) => {
    const claim = await verified(req.query);
    if (!claim) return invalid(res);
    const label = emailPreferenceLabels[claim.kind];
    const token = (req.query as { token: string }).token;
    page(
      res,
      200,
      `Unsubscribe from ${label}?`,
      `<p>OnAir will stop sending you ${escapeHtml(label)}. Sign-in codes and other mail you ask for still arrive.</p>
<form method="post" action="${escapeHtml(`${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`)}"><button type="submit">Unsubscribe</button></form>`,
    );
  });

  router.post(UNSUBSCRIBE_PATH, async (req, res) => {
    const claim = await verified(req.query);
    if (!claim) return invalid(res);
    const data = { [column[claim.kind]]: false };
    await deps.db.partnerProfile.upsert({ where: { userId: claim.userId }, create: { userId: claim.userId, ...data }, update: data });
    deps.logger.info({ userId: claim.userId, kind: claim.kind }, 'unsubscribed through a mail link');
    const label = emailPreferenceLabels[claim.kind];
    page(
      res,
      200,
      'You are unsubscribed',
      `<p>OnAir will not send you ${escapeHtml(label)} any more.</p><p class="muted">Changed your mind? Turn it back on in <a href="${escapeHtml(`${deps.publicUrl}/partner/settings/email-notifications`)}" style="color:#e8eaf0">Settings › Email notifications</a>.</p>`,
    );
  });
  return router;
}

const requireAdmin: RequestHandler = (req, _res, next) => {
  if (getCurrentUser(req).userType !== 'ADMIN') throw new OnAirError('FORBIDDEN', 'The admin portal is for administrators only.');
  next();
};

/** The admin portal's announcements (product updates, partner news). */
export function announcementRoutes(deps: { db: Db; announcements: Announcements; resolveSession: SessionResolver }): Router {
  const router = Router();
  router.use(sendAnnouncementEndpoint.path, authenticate(deps.db, deps.resolveSession), requireAdmin);
  mount(router, sendAnnouncementEndpoint, async ({ body }, { req }) => deps.announcements.send(getCurrentUser(req).id, body));
  return router;
}
