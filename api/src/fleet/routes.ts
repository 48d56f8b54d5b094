import { Router, type RequestHandler } from 'express';
import { getFleetLoadHistoryEndpoint, getFleetOverviewEndpoint, OnAirError } from '@onair/protocol';
import type { Db } from '@onair/db';
import type { FleetOverviewReader } from './fleet-overview.ts';
import { authenticate, getCurrentUser, type SessionResolver } from '../http/auth-context.ts';
import { mount } from '../http/mount.ts';

/** Administrators only: anyone else signed in gets FORBIDDEN (403), anonymous callers UNAUTHENTICATED (401). */
const requireAdmin: RequestHandler = (req, _res, next) => {
  if (getCurrentUser(req).userType !== 'ADMIN') throw new OnAirError('FORBIDDEN');
  next();
};

/** The operators' dashboard api: the fleet's live state and its load over the last hour. */
export function fleetRoutes(deps: { db: Db; fleetOverview: FleetOverviewReader; resolveSession: SessionResolver }): Router {
  const router = Router();
  const reader = deps.fleetOverview;
  router.use('/api/v1/admin', authenticate(deps.db, deps.resolveSession), requireAdmin);
  mount(router, getFleetOverviewEndpoint, async () => reader.overview());
  mount(router, getFleetLoadHistoryEndpoint, async () => reader.loadHistory());
  return router;
}
