import { memberEndpoints } from '@onair/protocol';
import type { Accounts } from '../auth/index.ts';
import type { SessionResolver } from '../http/auth-context.ts';
import type { Platform } from '../module.ts';
import { MemberService } from './member-service.ts';
import { memberRoutes } from './routes.ts';

export interface MembersServices {
  members: MemberService;
}

/** Project members and their invitations (cohosts, contributors). */
export const membersModule = {
  name: 'members',
  build: (deps: Platform & { accounts: Accounts }): MembersServices => ({
    members: new MemberService({ db: deps.db, mailer: deps.accounts.mailer, logger: deps.logger, publicUrl: deps.config.PUBLIC_URL }),
  }),
  http: {
    routes: {
      endpoints: memberEndpoints,
      mount: (c: Platform & MembersServices & { resolveSession: SessionResolver }) =>
        memberRoutes({ db: c.db, members: c.members, resolveSession: c.resolveSession }),
    },
  },
};
