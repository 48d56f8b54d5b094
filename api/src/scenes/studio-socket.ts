import { acceptedScenePatchSchema, projectChannels, serverMessageSchema, userProjectsChannel } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { parsePublished, toWatchers, type StudioSocketFeature } from '../ws/studio-feature.ts';
import type { SceneService } from './scene-service.ts';

/**
 * `/ws` of scenes: `subscribe` opens a project's feeds; accepted patches and renames reach every open
 * studio of it, and a user's project list changes reach every socket of that user (their Projects pages).
 */
export function scenesStudioSocket(deps: { scenes: SceneService; logger: Logger }): StudioSocketFeature {
  const { logger } = deps;
  return {
    name: 'scenes',
    handlers: {
      subscribe: async (client, message) => {
        await client.watch(message.projectId);
        // Read after the Redis subscription is live: any later version is sure to be delivered.
        const { version } = await deps.scenes.assertAccess(client.user, message.projectId);
        client.send({ type: 'subscribed', projectId: message.projectId, version });
      },
    },
    projectFeeds: [
      {
        name: 'scene patches',
        channel: projectChannels.scene,
        forward: (projectId, raw, hub) => {
          const accepted = parsePublished(acceptedScenePatchSchema, raw, logger, 'scene patch message', { projectId });
          if (!accepted || accepted.projectId !== projectId) return;
          toWatchers(hub, projectId, { type: 'scene.patched', projectId, version: accepted.version, ops: accepted.ops });
        },
      },
      {
        name: 'project details',
        channel: projectChannels.details,
        // A change to the project itself (its name).
        forward: (projectId, raw, hub) => {
          const message = parsePublished(serverMessageSchema, raw, logger, 'project message', { projectId });
          if (message?.type !== 'project.renamed' || message.projectId !== projectId) return;
          toWatchers(hub, projectId, message);
        },
      },
    ],
    userFeeds: [
      {
        name: 'project list',
        channel: userProjectsChannel,
        forward: (userId, raw, hub) => {
          const message = parsePublished(serverMessageSchema, raw, logger, 'project list message', { userId });
          if (message?.type !== 'projects.changed') return;
          for (const client of hub.socketsOf(userId)) client.send(message);
        },
      },
    ],
  };
}
