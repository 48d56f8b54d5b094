import { readyzEndpoint } from '@onair/protocol';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { describeOutage } from '../model/readiness.ts';
import { useSystemStore, type ReadinessStatus } from '../stores/index.ts';
import { showToast } from './toasts.ts';

/** Often enough to notice an outage while someone is on air, rare enough to cost nothing. */
export const READINESS_POLL_INTERVAL_MS = 15_000;

// Checks can overlap (a slow answer and the next poll, or "Check now"); only the newest may land,
// or an old answer could overwrite a newer one.
let latestCheck = 0;

/** Asks the api's `/readyz` how the system is and records the answer in the system store. */
export async function refreshReadiness(client: HttpClient = httpClient): Promise<ReadinessStatus> {
  const check = ++latestCheck;
  const checkedAt = Date.now();
  let next: ReadinessStatus;
  try {
    // 503 is how the api says "answering, but not every part is up"; its body has the details.
    const readiness = await call(readyzEndpoint, {}, client);
    next = { kind: readiness.ready ? 'ready' : 'degraded', readiness, checkedAt };
  } catch (err) {
    next = { kind: 'unreachable', reason: err instanceof Error ? err.message : String(err), checkedAt };
  }
  if (check !== latestCheck) return next;
  const previous = useSystemStore.getState().readiness;
  useSystemStore.setState({ readiness: next });
  announceChange(previous, next);
  return next;
}

/** Checks now and then every interval until the returned function is called. */
export function watchReadiness(intervalMs = READINESS_POLL_INTERVAL_MS, client: HttpClient = httpClient): () => void {
  void refreshReadiness(client);
  const timer = setInterval(() => void refreshReadiness(client), intervalMs);
  return () => clearInterval(timer);
}

/**
 * Toasts only on changes, never on the first answer: the indicator already shows the state, and a
 * toast is for news (the studio just lost its server, or got it back).
 */
function announceChange(previous: ReadinessStatus, next: ReadinessStatus): void {
  if (previous.kind === 'checking' || previous.kind === next.kind) return;
  if (next.kind === 'ready') {
    showToast({ kind: 'success', title: 'OnAir is back', description: 'Every service is up again.' });
  } else if (next.kind === 'degraded') {
    showToast({ kind: 'warning', title: 'Some OnAir services are down', description: `${describeOutage(next.readiness)}.` });
  } else if (next.kind === 'unreachable') {
    showToast({ kind: 'error', title: 'The OnAir server cannot be reached', description: 'Checking again shortly.' });
  }
}
