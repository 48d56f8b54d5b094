import { eventChannels, eventServerMessageSchema } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { publishedAsIs, type StudioSocketFeature } from '../ws/studio-feature.ts';

/** `/ws` of the events feed: new events, published as sent and checked once before forwarding. */
export function eventsStudioSocket(deps: { logger: Logger }): StudioSocketFeature {
  return { name: 'events', projectFeeds: [publishedAsIs('events', eventChannels.project, eventServerMessageSchema, deps.logger)] };
}
