import type { Readiness } from '@onair/protocol';

export interface ReadinessPart {
  label: string;
  ok: boolean;
  detail?: string | undefined;
}

/** The parts `/readyz` checks, in words an operator or creator understands. */
export function readinessParts(readiness: Readiness): ReadinessPart[] {
  const { database, redis, mediaWorkers, renderWorkers } = readiness.checks;
  return [
    { label: 'Database', ok: database.ok, detail: database.detail },
    { label: 'Redis', ok: redis.ok, detail: redis.detail },
    { label: `Media workers (${mediaWorkers.count})`, ok: mediaWorkers.ok, detail: mediaWorkers.detail },
    { label: `Render workers (${renderWorkers.count})`, ok: renderWorkers.ok, detail: renderWorkers.detail },
  ];
}

/** One line naming what is down, e.g. "Media workers (0) and Redis are down". */
export function describeOutage(readiness: Readiness): string {
  const down = readinessParts(readiness)
    .filter((part) => !part.ok)
    .map((part) => part.label);
  if (down.length === 0) return 'Every service is up';
  const names = down.length === 1 ? down[0] : `${down.slice(0, -1).join(', ')} and ${down.at(-1)}`;
  return `${names} ${down.length === 1 ? 'is' : 'are'} down`;
}
