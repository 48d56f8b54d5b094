import { destinationChannels, destinationServerMessageSchema } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { publishedAsIs, type StudioSocketFeature } from '../ws/studio-feature.ts';

/** `/ws` of destinations: their events, the broadcast's state and output health, published as sent and checked before forwarding. */
export function destinationsStudioSocket(deps: { logger: Logger }): StudioSocketFeature {
  return { name: 'destinations', projectFeeds: [publishedAsIs('destination', destinationChannels.project, destinationServerMessageSchema, deps.logger)] };
}
