import { Router, type Request } from 'express';
import type { Db } from '@onair/db';
import {
  deleteCurrentUserEndpoint,
  getCurrentUserEndpoint,
  getUserSettingsEndpoint,
  mailingGroups,
  OnAirError,
  resolutionForRole,
  roleOf,
  updateCurrentUserEndpoint,
  updateMailingPreferencesEndpoint,
  updateMailingStatusEndpoint,
  userLabelSchema,
  type CurrentUser,
  type MailingPreferences,
  type MailingSettings,
} from '@onair/protocol';
import type { SessionResolver } from '../http/auth-context.ts';
import { mount } from '../http/mount.ts';
import type { AccountDeletionService } from './deletion-service.ts';

const userSelect = {
  id: true,
  email: true,
  emailVerified: true,
  name: true,
  image: true,
  phoneNumber: true,
  twoFactorEnabled: true,
  userType: true,
  labels: true,
  createdAt: true,
  lastLoggedInAt: true,
  mailingSubscribed: true,
  mailingPreferences: true,
  deactivatedAt: true,
  eraseAfter: true,
  subscriptions: { orderBy: { createdAt: 'desc' }, select: { planId: true, itemPriceId: true, status: true } },
} as const;

type UserRow = NonNullable<Awaited<ReturnType<typeof loadUser>>>;

function loadUser(db: Db, id: string) {
  return db.user.findUnique({ where: { id }, select: userSelect });
}

/** Spec §3 User: role from the current subscription (Free without one), resolution from role. */
function toCurrentUser(row: UserRow): CurrentUser {
  const role = roleOf(row.subscriptions);
  return {
    id: row.id,
    email: row.email,
    emailVerified: row.emailVerified,
    displayName: row.name,
    avatar: row.image ?? null,
    phoneNumber: row.phoneNumber ?? null,
    twoFactorEnabled: row.twoFactorEnabled,
    userType: row.userType,
    labels: row.labels.flatMap((l) => {
      const parsed = userLabelSchema.safeParse(l);
      return parsed.success ? [parsed.data] : [];
    }),
    role,
    resolution: resolutionForRole(role),
    createdAt: row.createdAt.toISOString(),
    lastLoggedInAt: row.lastLoggedInAt?.toISOString() ?? null,
  };
}

/** Every available group with its stored choice; a group never chosen counts as wanted. */
function mailingOf(row: { mailingSubscribed: boolean; mailingPreferences: unknown }, enabled: boolean): MailingSettings {
  const stored = (row.mailingPreferences ?? {}) as Record<string, unknown>;
  const preferences: MailingPreferences = {};
  for (const group of mailingGroups) preferences[group.id] = typeof stored[group.id] === 'boolean' ? (stored[group.id] as boolean) : true;
  return { enabled, subscribed: row.mailingSubscribed, preferences, availableGroups: [...mailingGroups] };
}

/**
 * The account calls of spec §7: current user, display name, delete, settings and mailing. Delete
 * is the one account deletion of both areas: deactivated now, erased after the retention window.
 */
export function userRoutes(deps: { db: Db; resolveSession: SessionResolver; deletion: AccountDeletionService; mailingEnabled: boolean }): Router {
  const router = Router();
  const { db } = deps;

  const signedIn = async (req: Request): Promise<UserRow> => {
    const id = await deps.resolveSession(req);
    const row = id ? await loadUser(db, id) : null;
    if (!row) throw new OnAirError('UNAUTHENTICATED');
    // Partner spec §4: signing in to an account pending deletion leads to its reactivation, nowhere else.
    if (row.deactivatedAt) throw new OnAirError('ACCOUNT_PENDING_DELETION', undefined, { eraseAfter: row.eraseAfter?.toISOString() ?? null });
    return row;
  };

  mount(router, getCurrentUserEndpoint, async (_input, { req }) => toCurrentUser(await signedIn(req)));

  mount(router, updateCurrentUserEndpoint, async ({ body }, { req }) => {
    const user = await signedIn(req);
    await db.user.update({ where: { id: user.id }, data: { name: body.displayName } });
    return toCurrentUser((await loadUser(db, user.id))!);
  });

  mount(router, deleteCurrentUserEndpoint, async (_input, { req, res }) => {
    const user = await signedIn(req);
    // Signed out everywhere and its broadcasts ended now; erased with everything it owns (ON DELETE CASCADE) after the window.
    await deps.deletion.deactivate(user.id);
    res.clearCookie('onair.session_token', { path: '/' });
    res.clearCookie('onair.session_data', { path: '/' });
    return null;
  });

  mount(router, getUserSettingsEndpoint, async (_input, { req }) => ({ mailing: mailingOf(await signedIn(req), deps.mailingEnabled) }));

  mount(router, updateMailingPreferencesEndpoint, async ({ body }, { req }) => {
    const user = await signedIn(req);
    const known = new Set(mailingGroups.map((g) => g.id));
    const unknown = Object.keys(body).filter((id) => !known.has(id));
    if (unknown.length > 0) {
      throw new OnAirError('VALIDATION_FAILED', `Unknown mailing group: ${unknown.join(', ')}.`, { unknownGroups: unknown });
    }
    const merged = { ...mailingOf(user, deps.mailingEnabled).preferences, ...body };
    const row = await db.user.update({
      where: { id: user.id },
      data: { mailingPreferences: merged },
      select: { mailingSubscribed: true, mailingPreferences: true },
    });
    return mailingOf(row, deps.mailingEnabled);
  });

  mount(router, updateMailingStatusEndpoint, async ({ body }, { req }) => {
    const user = await signedIn(req);
    const row = await db.user.update({
      where: { id: user.id },
      data: { mailingSubscribed: body.subscribed },
      select: { mailingSubscribed: true, mailingPreferences: true },
    });
    return mailingOf(row, deps.mailingEnabled);
  });

  return router;
}
