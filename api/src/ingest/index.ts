import type { Logger } from '@onair/runtime';
import type { ApiConfig } from '../config.ts';
import type { IngestService } from './ingest-service.ts';

export interface IngestWatch {
  close(): void;
}

/**
 * The ingest's background work in one api process: feeds gone past their grace period end their
 * Auto Live broadcast. Every replica sweeps; each project is claimed by one (IngestService.sweepGrace).
 */
export function startIngestWatch(deps: { config: ApiConfig; logger: Logger; ingest: IngestService }): IngestWatch {
  const { ingest } = deps;
  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    ingest
      .sweepGrace()
      .catch((err: unknown) => deps.logger.warn({ err: (err as Error).message }, 'ingest grace sweep failed'))
      .finally(() => (sweeping = false));
  }, deps.config.INGEST_SWEEP_MS);
  timer.unref();
  return { close: () => clearInterval(timer) };
}

export { IngestService } from './ingest-service.ts';
