import { Router, type Request } from 'express';
import { getAccountDeletionEndpoint, OnAirError, reactivateAccountEndpoint, requestAccountDeletionEndpoint } from '@onair/protocol';
import type { SessionResolver } from '../http/auth-context.ts';
import { getCurrentUser } from '../http/auth-context.ts';
import { mount } from '../http/mount.ts';
import type { AccountDeletionService } from './deletion-service.ts';

/**
 * Deletion and reactivation. Status and reactivation answer a deactivated account's new session
 * (every other route treats it as signed out), so they resolve the session themselves.
 */
export function accountDeletionRoutes(deps: { deletion: AccountDeletionService; resolveSession: SessionResolver }): Router {
  const router = Router();
  const sessionUser = async (req: Request): Promise<string> => {
    const id = await deps.resolveSession(req);
    if (!id) throw new OnAirError('UNAUTHENTICATED');
    return id;
  };
  mount(router, getAccountDeletionEndpoint, async (_input, { req }) => deps.deletion.status(await sessionUser(req)));
  mount(router, requestAccountDeletionEndpoint, async ({ body }, { req, res }) => {
    const status = await deps.deletion.requestDeletion(getCurrentUser(req).id, body.confirmation);
    res.clearCookie('onair.session_token', { path: '/' });
    res.clearCookie('onair.session_data', { path: '/' });
    return status;
  });
  mount(router, reactivateAccountEndpoint, async (_input, { req }) => deps.deletion.reactivate(await sessionUser(req)));
  return router;
}
