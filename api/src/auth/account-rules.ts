import type { Db } from '@onair/db';
import { labelsForEmail, type UserLabel, type UserType } from '@onair/protocol';
import type { AuthConfig } from './config.ts';

/** Administrators come from configuration; everyone else who signs in is a host (guests join by link). */
export function userTypeForEmail(email: string, config: Pick<AuthConfig, 'ADMIN_EMAILS'>): UserType {
  const plain = email.trim().toLowerCase();
  return config.ADMIN_EMAILS.some((e) => e.toLowerCase() === plain) ? 'ADMIN' : 'HOST';
}

export function labelsForConfig(email: string, config: AuthConfig): UserLabel[] {
  return labelsForEmail(email, {
    demo: config.DEMO_EMAILS,
    draft: config.DRAFT_EMAILS,
    tester: config.TESTER_EMAILS,
    testerDomains: config.TESTER_DOMAINS,
  });
}

/**
 * Runs when a session is created (every sign-in): records lastLoggedInAt and re-applies the
 * configured user type and labels, so a change of ADMIN_EMAILS takes effect at the next sign-in
 * and a changed e-mail address gets the labels of its new address.
 */
export async function recordSignIn(db: Db, config: AuthConfig, userId: string): Promise<void> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { email: true, userType: true } });
  if (!user) return;
  const configured = userTypeForEmail(user.email, config);
  // A GUEST stays a guest unless configuration makes them an admin; an admin removed from
  // ADMIN_EMAILS becomes a host again.
  const userType = configured === 'ADMIN' ? 'ADMIN' : user.userType === 'GUEST' ? 'GUEST' : 'HOST';
  await db.user.update({
    where: { id: userId },
    data: { lastLoggedInAt: new Date(), userType, labels: labelsForConfig(user.email, config) },
  });
}
