import { destinationChannels, destinationServerMessageSchema } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { parsePublished, toWatchers, type StudioSocketFeature } from '../ws/studio-feature.ts';

/** `/ws` of destinations: their events, the broadcast's state and output health, published as sent and checked before forwarding. */
export function destinationsStudioSocket(deps: { logger: Logger }): StudioSocketFeature {
  return {
    name: 'destinations',
    projectFeeds: [
      {
        name: 'destination events',
        channel: destinationChannels.project,
        forward: (projectId, raw, hub) => {
          const message = parsePublished(destinationServerMessageSchema, raw, deps.logger, 'destination message', { projectId });
          if (message?.projectId === projectId) toWatchers(hub, projectId, message);
        },
      },
    ],
  };
}
