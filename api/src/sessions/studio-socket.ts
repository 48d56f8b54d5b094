import { renderKeys, renderStatusSchema } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { parsePublished, toWatchers, type StudioSocketFeature } from '../ws/studio-feature.ts';

/**
 * `/ws` of a session's web-page sources: a render worker's page status, checked and cut down to
 * what the studio shows. A studio session's id is its project's id, so a project's pages report on
 * `renderKeys.status(projectId)`.
 */
export function renderStatusStudioSocket(deps: { logger: Logger }): StudioSocketFeature {
  return {
    name: 'page status',
    projectFeeds: [
      {
        name: 'render status',
        channel: renderKeys.status,
        forward: (projectId, raw, hub) => {
          const status = parsePublished(renderStatusSchema, raw, deps.logger, 'render status', { projectId });
          if (!status || status.sessionId !== projectId || status.renderId !== `${projectId}.${status.sourceId}`) return;
          toWatchers(hub, projectId, {
            type: 'render.status',
            projectId,
            sourceId: status.sourceId,
            state: status.state,
            ...(status.problem ? { reason: status.problem.reason } : {}),
          });
        },
      },
    ],
  };
}
