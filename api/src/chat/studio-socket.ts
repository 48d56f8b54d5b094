import { chatChannels, chatServerMessageSchema } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { publishedAsIs, type StudioSocketFeature } from '../ws/studio-feature.ts';
import type { ChatService } from './chat-service.ts';

/** `/ws` of platform chat: sending and the history, and the messages and connector states of a project's chats. */
export function chatStudioSocket(deps: { chat: ChatService; logger: Logger }): StudioSocketFeature {
  return {
    name: 'platform chat',
    handlers: {
      'chat.send': async (client, message) => {
        await deps.chat.send(client.user, message.projectId, message.text, message.targets);
      },
      'chat.history.request': async (client, message) => {
        client.send(await deps.chat.history(message.projectId));
      },
    },
    projectFeeds: [publishedAsIs('chat', chatChannels.project, chatServerMessageSchema, deps.logger)],
  };
}
