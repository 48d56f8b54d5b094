import { ExitGuard } from './exit-guard.ts';
import type { Logger } from './logger.ts';

/** How long past its own deadline a stop whose main thread is stuck is ended by the watchdog thread. */
const SHUTDOWN_BACKSTOP_MS = 2_000;

/**
 * Runs `shutdown` once on SIGTERM or SIGINT, then exits. A second signal, or a shutdown that
 * outlives `timeoutMs`, exits at once with a failure code so an orchestrator never waits forever.
 *
 * The deadline's timer runs on the main thread, so a main thread stuck in a synchronous call (as
 * pino's exit flush once was, retrying a write to a pipe whose reader had died: logger.ts) would
 * never see it: a watchdog thread (ExitGuard) ends the process SHUTDOWN_BACKSTOP_MS after the
 * deadline whatever the main thread does.
 */
export function onShutdownSignal(logger: Logger, shutdown: (signal: NodeJS.Signals) => Promise<void>, timeoutMs = 30_000): void {
  // Started now, not at the signal: a thread cannot be started by a main thread that is stuck.
  const guard = new ExitGuard();
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal, exiting now');
      process.exit(1);
    }
    stopping = true;
    guard.arm(timeoutMs + SHUTDOWN_BACKSTOP_MS);
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
