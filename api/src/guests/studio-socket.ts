import type { Redis } from 'ioredis';
import { guestChannels, serverMessageSchema } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { CLOSE_POLICY_VIOLATION } from '../ws/socket-limits.ts';
import { parsePublished, type StudioClient, type StudioSocketFeature } from '../ws/studio-feature.ts';
import { GUEST_GRACE_MS, type GuestService } from './guest-service.ts';

/**
 * `/ws` of guests: Guest Chat and the guests of the room, and a guest's presence. A removed guest's
 * own sockets are told and closed (which takes them out of the room: their media stops); the host
 * hears of a guest turned away.
 */
export function guestsStudioSocket(deps: { guests: GuestService; redis: Redis; logger: Logger }): StudioSocketFeature {
  const { logger } = deps;

  /**
   * Counts a guest's open sockets across replicas: when the last one closes and none comes back
   * within the grace period (a reload, a network blip), the guest has left and their seat is free.
   */
  const presence = (client: StudioClient, delta: 1 | -1): void => {
    const projectId = client.user.guest?.projectId;
    if (!projectId) return;
    const guestId = client.user.id;
    const key = `onair:guests:${guestId}:sockets`;
    void (async () => {
      const open = await deps.redis.incrby(key, delta);
      await deps.redis.expire(key, 86_400);
      if (open > 0) return;
      setTimeout(() => {
        void (async () => {
          const still = Number((await deps.redis.get(key)) ?? '0');
          if (still <= 0) await deps.guests.markLeft(guestId, projectId);
        })().catch((err: unknown) => logger.warn({ err, projectId }, 'guest presence not updated'));
      }, GUEST_GRACE_MS).unref();
    })().catch((err: unknown) => logger.warn({ err, projectId }, 'guest presence not counted'));
  };

  return {
    name: 'guests',
    connected: (client) => presence(client, +1),
    disconnected: (client) => presence(client, -1),
    projectFeeds: [
      {
        name: 'room',
        channel: guestChannels.room,
        forward: (projectId, raw, hub) => {
          const message = parsePublished(serverMessageSchema, raw, logger, 'room message', { projectId });
          if (!message || !('projectId' in message) || message.projectId !== projectId) return;
          if (message.type === 'guest.removed') {
            // Every socket of that guest on this replica, whether or not it watches the project yet.
            for (const client of hub.socketsOf(message.guestId)) {
              if (client.user.guest?.projectId !== projectId) continue;
              client.send(message);
              client.close(CLOSE_POLICY_VIOLATION, 'Removed from the studio');
            }
            return;
          }
          for (const client of hub.watchersOf(projectId)) {
            if (message.type === 'guest.chat' || message.type === 'guests.changed') client.send(message);
            else if (message.type === 'guest.refused' && !client.user.guest) client.send(message);
          }
        },
      },
    ],
  };
}
