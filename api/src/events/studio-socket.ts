import { eventChannels, eventServerMessageSchema } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { parsePublished, toWatchers, type StudioSocketFeature } from '../ws/studio-feature.ts';

/** `/ws` of the events feed: new events, published as sent and checked once before forwarding. */
export function eventsStudioSocket(deps: { logger: Logger }): StudioSocketFeature {
  return {
    name: 'events',
    projectFeeds: [
      {
        name: 'events',
        channel: eventChannels.project,
        forward: (projectId, raw, hub) => {
          const message = parsePublished(eventServerMessageSchema, raw, deps.logger, 'events message', { projectId });
          if (message?.projectId === projectId) toWatchers(hub, projectId, message);
        },
      },
    ],
  };
}
