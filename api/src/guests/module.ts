import { guestEndpoints } from '@onair/protocol';
import { provideGuestResolver, type GuestResolver, type SessionResolver } from '../http/auth-context.ts';
import { middleware, type Platform } from '../module.ts';
import type { SceneService } from '../scenes/scene-service.ts';
import { createGuestService, guestResolverOf, type GuestService } from './index.ts';
import { guestRoutes } from './routes.ts';
import { guestsStudioSocket } from './studio-socket.ts';

export interface GuestsServices {
  guests: GuestService;
  /** The guest behind a request's guest-session cookie (HTTP and /ws). */
  guestResolver: GuestResolver;
}

/** Guests by link: no account, a signed link, a hashed httpOnly guest-session cookie. */
export const guestsModule = {
  name: 'guests',
  build: (deps: Platform & { scenes: SceneService }): GuestsServices => {
    // A guest who leaves is taken out of the scenes that follow their layout.
    const guests = createGuestService(deps, (guestId, projectId) => deps.scenes.guestLeft(projectId, guestId));
    return { guests, guestResolver: guestResolverOf(guests) };
  },
  /** `/ws`: Guest Chat, the room's guests, removals and a guest's presence. */
  studioSocket: { name: 'guests', build: (c: Platform & { guests: GuestService }) => guestsStudioSocket(c) },
  http: {
    /** Before the uploads: a guest's request to them is the guest's (refused by role), not anonymous. */
    resolver: middleware((c: GuestsServices) => provideGuestResolver(c.guestResolver)),
    routes: {
      endpoints: guestEndpoints,
      mount: (c: Platform & GuestsServices & { resolveSession: SessionResolver }) =>
        guestRoutes({
          db: c.db,
          redis: c.redis,
          guests: c.guests,
          resolveSession: c.resolveSession,
          publicUrl: c.config.PUBLIC_URL,
          joinsPerMinute: c.config.GUEST_JOIN_RATE_LIMIT_PER_IP,
        }),
    },
  },
};
