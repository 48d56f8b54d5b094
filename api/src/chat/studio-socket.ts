import { z } from 'zod';
import { chatChannels, chatServerMessageSchema, pipelineReportSchema, sessionStatusKeys } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { parsePublished, publishedAsIs, toWatchers, type StudioSocketFeature } from '../ws/studio-feature.ts';
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
    projectFeeds: [
      publishedAsIs('chat', chatChannels.project, chatServerMessageSchema, deps.logger),
      {
        // The session's pipeline reports the chat message it draws from now on (a studio session's id
        // is its project's id): the studio says 'On screen' from this, not from the click (issue 53
        // item 1). The channel's other reports (stats, outputs) are other features' business.
        name: 'chat on air',
        channel: sessionStatusKeys.channel,
        forward: (projectId, raw, hub) => {
          if (!raw.includes('"chatOnScreenApplied"')) return;
          const report = parsePublished(pipelineReportSchema.and(z.object({ sessionId: z.string() })), raw, deps.logger, 'pipeline report', { projectId });
          if (!report || report.sessionId !== projectId || report.type !== 'chatOnScreenApplied') return;
          toWatchers(hub, projectId, { type: 'chat.onAir', projectId, onAir: report.onAir });
        },
      },
    ],
  };
}
