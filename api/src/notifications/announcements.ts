import type { AnnouncementBody } from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import { escapeHtml, layout } from '../mail/templates.ts';
import type { PreferenceMailer } from './preference-mailer.ts';

const PAGE = 200;

/**
 * Product updates and partner news from the operators: one mail per onboarded, active creator,
 * each through PreferenceMailer, so a switch that is off is obeyed and every mail has its
 * unsubscribe link. Sent in the request, one after the other (an installation's creators, not a
 * mailing list's millions); the audit log records who sent what.
 */
export class Announcements {
  constructor(private readonly deps: { db: Db; mail: PreferenceMailer; logger: Logger }) {}

  async send(adminId: string, body: AnnouncementBody): Promise<{ sent: number; optedOut: number; failed: number }> {
    const result = { sent: 0, optedOut: 0, failed: 0 };
    const html = layout(
      body.subject,
      body.text
        .split(/\n{2,}/)
        .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
        .join(''),
    );
    let cursor: string | undefined;
    for (;;) {
      const page = await this.deps.db.partnerProfile.findMany({
        where: { onboardedAt: { not: null }, user: { deactivatedAt: null } },
        select: { id: true, userId: true },
        orderBy: { id: 'asc' },
        take: PAGE,
        ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
      });
      for (const { userId } of page) {
        const outcome = await this.deps.mail.send(userId, body.kind, { subject: body.subject, text: body.text, html });
        if (outcome === 'sent') result.sent++;
        else if (outcome === 'opted-out') result.optedOut++;
        else if (outcome === 'failed') result.failed++;
      }
      if (page.length < PAGE) break;
      cursor = page[page.length - 1]!.id;
    }
    await this.deps.db.adminAuditEntry.create({
      data: { actorId: adminId, action: 'announcement-sent', targetType: 'announcement', targetId: body.kind, detail: { subject: body.subject, ...result } },
    });
    this.deps.logger.info({ audit: 'announcement-sent', kind: body.kind, by: adminId, ...result }, 'announcement sent');
    return result;
  }
}
