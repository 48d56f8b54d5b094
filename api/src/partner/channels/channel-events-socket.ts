import { channelEventsServerMessageSchema, eventChannels } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import type { ChannelAccess } from '../../access/channel-access.ts';
import { parsePublished, type StudioSocketFeature } from '../../ws/studio-feature.ts';

/**
 * `/ws` of the partner area: the Channel page and the Dashboard watch a channel's events feed live,
 * as the studio's feed is. Watching needs what reading the feed needs (`view stream stats`), checked
 * at each `channel.watch`; the events store publishes each new event on its channel once.
 */
export function channelEventsStudioSocket(deps: { channelAccess: ChannelAccess; logger: Logger }): StudioSocketFeature {
  return {
    name: 'channel events',
    handlers: {
      'channel.watch': async (client, message) => {
        await deps.channelAccess.require(client.user, message.channelId, 'view stream stats');
        await client.watchChannel(message.channelId);
      },
      'channel.unwatch': async (client, message) => {
        await client.unwatchChannel(message.channelId);
      },
    },
    channelFeeds: [
      {
        name: 'channel events',
        channel: eventChannels.channel,
        forward: (channelId, raw, hub) => {
          const message = parsePublished(channelEventsServerMessageSchema, raw, deps.logger, 'channel events message', { channelId });
          if (message?.channelId !== channelId) return;
          for (const client of hub.channelWatchersOf(channelId)) client.send(message);
        },
      },
    ],
  };
}
