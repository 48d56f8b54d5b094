import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import { middleware } from '../module.ts';
import { ChannelAccess } from './channel-access.ts';
import { ProjectAccess, provideProjectAccess } from './project-access.ts';

export interface AccessServices {
  /** Who may do what in a studio project (spec §6). */
  access: ProjectAccess;
  /** Who may do what in a partner channel (partner spec §1). */
  channelAccess: ChannelAccess;
}

/** The access rules: a horizontal layer, read by every feature's routes through mount(). */
export const accessModule = {
  name: 'access',
  build: (deps: { db: Db; logger: Logger }): AccessServices => ({ access: new ProjectAccess(deps.db, deps.logger), channelAccess: new ChannelAccess(deps.db) }),
  http: {
    /** Before the uploads: every project route behind it finds the rules through mount(). */
    provide: middleware((c: { access: ProjectAccess }) => provideProjectAccess(c.access)),
  },
};
