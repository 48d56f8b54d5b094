import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler } from 'express';
import {
  GUEST_REQUEST_HEADER,
  chooseCurrentSubscription,
  entitlementKeySchema,
  isEnabled,
  OnAirError,
  planEntitlements,
  roleOf,
  type Entitlements,
  type PlanId,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import type { CurrentUser } from '../access/current-user.ts';

/** The cookie that carries a browser session (signed `<token>.<signature>`, set by better-auth). */
export const SESSION_COOKIE = 'onair.session_token';

export type { CurrentUser } from '../access/current-user.ts';

/**
 * Entitlements come from the current subscription (spec §4). Until billing writes subscriptions
 * everyone is on Free, through the same path a paying user takes.
 */
function entitlementsOf(subscriptions: { status: string; planId: string; itemPriceId: string; entitlements: { featureId: string; value: string }[] }[]): {
  plan: PlanId;
  entitlements: Entitlements;
} {
  const plan = roleOf(subscriptions);
  const current = chooseCurrentSubscription(subscriptions);
  if (!current || current.entitlements.length === 0) return { plan, entitlements: planEntitlements[plan] };
  const entitlements: Entitlements = {};
  for (const e of current.entitlements) {
    const key = entitlementKeySchema.safeParse(e.featureId);
    if (key.success) entitlements[key.data] = e.value;
  }
  return { plan, entitlements };
}

/**
 * Who is calling, as a user id: the one question the project routes and `/ws` ask of sign-in.
 * The api passes better-auth's resolver (session cookie, bearer session token or API JWT).
 */
export type SessionResolver = (req: Pick<IncomingMessage, 'headers'>) => Promise<string | null>;

/** The user behind an id with the entitlements of their current subscription. */
export async function loadCurrentUser(db: Db, userId: string): Promise<CurrentUser | null> {
  const user = await db.user.findUnique({
    where: { id: userId },
    select: {
      id: true,
      userType: true,
      deactivatedAt: true,
      subscriptions: {
        orderBy: { createdAt: 'desc' },
        select: { status: true, planId: true, itemPriceId: true, entitlements: { select: { featureId: true, value: true } } },
      },
    },
  });
  // A deactivated account (pending deletion, partner spec §4) is signed out for every route but
  // its reactivation, which resolves the session itself.
  if (!user || user.deactivatedAt) return null;
  return { id: user.id, userType: user.userType, ...entitlementsOf(user.subscriptions) };
}

/**
 * Refuses what the project owner's plan switches off: `can-go-live` (Go Live, Auto Live, a
 * scheduled start) and `can-use-product` (opening a studio, making projects). The owner's plan
 * decides, whoever acts: a cohost goes live on the owner's plan. Flags are on only for "true".
 */
export async function assertOwnerPlanAllows(db: Db, projectId: string, key: 'can-go-live' | 'can-use-product', caller?: CurrentUser): Promise<void> {
  const project = await db.project.findUnique({ where: { id: projectId }, select: { ownerId: true } });
  if (!project) return;
  const owner = caller?.id === project.ownerId ? caller : await loadCurrentUser(db, project.ownerId);
  assertPlanAllows(owner?.entitlements ?? {}, key);
}

/** The same refusal for a caller's own plan (making a project of their own). */
export function assertPlanAllows(entitlements: Entitlements, key: 'can-go-live' | 'can-use-product'): void {
  if (isEnabled(entitlements, key)) return;
  throw new OnAirError(key === 'can-go-live' ? 'GO_LIVE_NOT_IN_PLAN' : 'PRODUCT_NOT_IN_PLAN', undefined, { entitlement: key });
}

/** Resolves the caller of a request or WebSocket upgrade; null without a valid session. */
export async function resolveCurrentUser(db: Db, resolve: SessionResolver, req: Pick<IncomingMessage, 'headers'>): Promise<CurrentUser | null> {
  const userId = await resolve(req);
  return userId ? loadCurrentUser(db, userId) : null;
}

const currentUsers = new WeakMap<Request, CurrentUser>();
/** Requests whose caller was resolved by authenticate() (signed in or not). */
const resolvedRequests = new WeakSet<Request>();

/** Whether authenticate() ran for this request, so getCurrentUser() answers for it. */
export function wasAuthenticated(req: Request): boolean {
  return resolvedRequests.has(req);
}

/** Finds the live guest behind a guest-session cookie (the guests capability provides it). */
export type GuestResolver = (req: Pick<IncomingMessage, 'headers'>) => Promise<CurrentUser | null>;

const GUEST_RESOLVER_KEY = 'guestResolver';

/** Makes guest sessions resolvable by `authenticate()` for every route behind it (without it a guest request is anonymous). */
export function provideGuestResolver(resolver: GuestResolver): RequestHandler {
  return (_req, res, next) => {
    res.locals[GUEST_RESOLVER_KEY] = resolver;
    next();
  };
}

/** A request the guest page makes as the guest of a link (header GUEST_REQUEST_HEADER): it acts as that guest only. */
export function isGuestRequest(req: Pick<IncomingMessage, 'headers'>): boolean {
  return req.headers[GUEST_REQUEST_HEADER] === '1';
}

/** Resolves `getCurrentUser(req)` for the routes after it; a request without a valid session goes on anonymous. */
export function authenticate(db: Db, resolve: SessionResolver): RequestHandler {
  return async (req, res, next) => {
    // Several routers guard the same path prefix; resolve the caller once per request.
    if (resolvedRequests.has(req)) {
      next();
      return;
    }
    const guestResolver = res.locals[GUEST_RESOLVER_KEY] as GuestResolver | undefined;
    const user = isGuestRequest(req) ? ((await guestResolver?.(req)) ?? null) : await resolveCurrentUser(db, resolve, req);
    if (user) currentUsers.set(req, user);
    resolvedRequests.add(req);
    next();
  };
}

/** The signed-in caller; UNAUTHENTICATED (401) when there is none. */
export function getCurrentUser(req: Request): CurrentUser {
  const user = currentUsers.get(req);
  // The guest page's request without a live guest session: the guest left, was removed, or it timed out.
  if (!user) throw new OnAirError(isGuestRequest(req) ? 'GUEST_SESSION_ENDED' : 'UNAUTHENTICATED');
  return user;
}
