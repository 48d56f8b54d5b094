import type { Redis } from 'ioredis';
import { destinationChannels, type DestinationServerMessage } from '@onair/protocol';
import type { Logger } from '@onair/runtime';

/**
 * Publishes destination and broadcast messages on the project's Redis channel; every api replica
 * forwards them to its open studios of that project (ws/studio-sockets.ts). A failed publish is
 * logged and swallowed: the change is committed, and a studio re-reads the list on reconnect.
 */
export class DestinationEvents {
  constructor(
    private readonly redis: Redis,
    private readonly logger: Logger,
  ) {}

  async publish(message: DestinationServerMessage): Promise<void> {
    try {
      await this.redis.publish(destinationChannels.project(message.projectId), JSON.stringify(message));
    } catch (err) {
      this.logger.warn({ err: (err as Error).message, projectId: message.projectId, type: message.type }, 'destination event publish failed');
    }
  }
}
