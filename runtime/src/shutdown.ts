import type { Logger } from './logger.ts';

/**
 * Runs `shutdown` once on SIGTERM or SIGINT, then exits. A second signal, or a shutdown that
 * outlives `timeoutMs`, exits at once with a failure code so an orchestrator never waits forever.
 */
export function onShutdownSignal(logger: Logger, shutdown: (signal: NodeJS.Signals) => Promise<void>, timeoutMs = 30_000): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal, exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error({ timeoutMs }, 'shutdown timed out');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    shutdown(signal).then(
      () => {
        logger.info('stopped cleanly');
        logger.flush();
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}
