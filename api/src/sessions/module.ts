import { closeSessionEndpoint, getSessionEndpoint, openSessionEndpoint } from '@onair/protocol';
import type { SecretBox } from '@onair/runtime';
import type { SessionResolver } from '../http/auth-context.ts';
import type { Platform } from '../module.ts';
import { sessionRoutes } from './routes.ts';
import { SessionService } from './session-service.ts';
import { renderStatusStudioSocket } from './studio-socket.ts';

export interface SessionsServices {
  /** Studio sessions: the placement queue and the commands to the owning worker. */
  sessions: SessionService;
}

/** Studio sessions (the unit of scheduling): placement, commands, status. */
export const sessionsModule = {
  name: 'sessions',
  build: (deps: Platform & { box: SecretBox | null }): SessionsServices => ({
    sessions: new SessionService(deps.db, deps.redis, deps.box ?? undefined, deps.logger),
  }),
  /** `/ws`: the session's page sources' status from the render workers. */
  studioSocket: { name: 'page status', build: (c: Platform) => renderStatusStudioSocket(c) },
  http: {
    routes: {
      endpoints: [openSessionEndpoint, getSessionEndpoint, closeSessionEndpoint],
      mount: (c: Platform & SessionsServices & { resolveSession: SessionResolver }) =>
        sessionRoutes({ db: c.db, sessions: c.sessions, resolveSession: c.resolveSession }),
    },
  },
};
