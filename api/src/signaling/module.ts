import type { Db } from '@onair/db';
import type { ProjectAccess } from '../access/project-access.ts';
import type { Platform } from '../module.ts';
import type { SessionService } from '../sessions/session-service.ts';
import { signalingStudioSocket } from './studio-socket.ts';

/** WebRTC signaling between studios, guests and the session's media worker; it lives on `/ws` only. */
export const signalingModule = {
  name: 'signaling',
  /** `/ws`: room.join, room.offer, room.ice, room.leave; a socket that ends leaves the room. */
  studioSocket: { name: 'signaling', build: (c: Platform & { db: Db; access: ProjectAccess; sessions: SessionService }) => signalingStudioSocket(c) },
};
