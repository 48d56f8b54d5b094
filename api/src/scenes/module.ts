import { projectEndpoints } from '@onair/protocol';
import type { ProjectAccess } from '../access/project-access.ts';
import { documentLimits } from '../config.ts';
import type { SessionResolver } from '../http/auth-context.ts';
import type { Platform, Running } from '../module.ts';
import type { OwnPageUrls } from '../access/own-page-urls.ts';
import { startCountdownWatch } from './countdown-watch.ts';
import { Countdowns } from './countdowns.ts';
import { projectRoutes } from './routes.ts';
import { SceneService } from './scene-service.ts';
import { scenesStudioSocket } from './studio-socket.ts';

export interface ScenesServices {
  /** Countdown scenes: when each ends, and the sweep that switches to the next scene. */
  countdowns: Countdowns;
  /** Projects and their scene documents. */
  scenes: SceneService;
}

/** Projects, their scene documents and the live patches on them. */
export const scenesModule = {
  name: 'scenes',
  build: (deps: Platform & { access: ProjectAccess; ownPages: OwnPageUrls }): ScenesServices => {
    const countdowns = new Countdowns({ db: deps.db, redis: deps.redis, logger: deps.logger, ...(deps.now ? { now: deps.now } : {}) });
    return {
      countdowns,
      scenes: new SceneService(deps.db, deps.redis, deps.logger, deps.access, documentLimits(deps.config), deps.ownPages.trusted, countdowns),
    };
  },
  /** `/ws`: subscribe, accepted patches and renames. */
  studioSocket: { name: 'scenes', build: (c: Platform & { scenes: SceneService }) => scenesStudioSocket(c) },
  http: {
    projects: {
      endpoints: projectEndpoints,
      mount: (c: Platform & ScenesServices & { resolveSession: SessionResolver }) =>
        projectRoutes({ db: c.db, scenes: c.scenes, resolveSession: c.resolveSession }),
    },
  },
  jobs: {
    // Issue 19: countdown scenes switch to their next scene when their time is up, studio open or not.
    countdowns: { name: 'countdown watch', start: (c: Platform & ScenesServices): Running => startCountdownWatch(c) },
  },
};
