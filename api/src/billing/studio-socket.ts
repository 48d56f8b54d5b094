import { serverMessageSchema, userAccountChannel } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { parsePublished, type StudioSocketFeature } from '../ws/studio-feature.ts';

/** `/ws` of billing: a user's subscription change reaches every tab they have open. */
export function billingStudioSocket(deps: { logger: Logger }): StudioSocketFeature {
  return {
    name: 'billing',
    userFeeds: [
      {
        name: 'account events',
        channel: userAccountChannel,
        forward: (userId, raw, hub) => {
          const message = parsePublished(serverMessageSchema, raw, deps.logger, 'account message', { userId });
          if (message?.type !== 'subscription.updated') return;
          for (const client of hub.socketsOf(userId)) client.send(message);
        },
      },
    ],
  };
}
