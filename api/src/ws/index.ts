import type { Server } from 'node:http';
import type { AppDeps } from '../app.ts';
import { resolveSessionUserId, type Accounts } from '../auth/index.ts';
import { SceneService } from '../scenes/scene-service.ts';
import { StudioSockets } from './studio-sockets.ts';

/** Serves `/ws` on the api's HTTP server; close it before the server on shutdown. */
export function attachStudioSockets(server: Server, deps: AppDeps & { accounts: Accounts }): { close(): Promise<void> } {
  const subscriber = deps.redis.duplicate();
  subscriber.on('error', (err: Error) => deps.logger.warn({ err: err.message }, 'redis subscriber connection error'));
  const sockets = new StudioSockets({
    db: deps.db,
    subscriber,
    scenes: new SceneService(deps.db, deps.redis, deps.logger),
    resolveSession: (req) => resolveSessionUserId(deps.accounts.auth, req),
    logger: deps.logger,
    publicUrl: deps.config.PUBLIC_URL,
  });
  sockets.attach(server);
  return {
    close: async () => {
      await sockets.close();
      subscriber.disconnect();
    },
  };
}
