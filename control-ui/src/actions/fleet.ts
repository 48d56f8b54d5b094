import { FLEET_HISTORY_WINDOW_MS, getFleetLoadHistoryEndpoint, getFleetOverviewEndpoint } from '@onair/protocol';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { RequestFailedError, UnauthorizedError } from '../api/http-errors.ts';
import { useFleetStore, type FleetStatus } from '../stores/index.ts';

/** Issue 9: the dashboard shows live load updated at least every 2 s. */
export const FLEET_POLL_INTERVAL_MS = 2000;
/** The chart covers an hour sampled every few seconds; refreshing it this often is plenty. */
export const FLEET_HISTORY_POLL_INTERVAL_MS = 10_000;

let latestRefresh = 0;

/** Reads the fleet's live state from the api into the fleet store. */
export async function refreshFleet(client: HttpClient = httpClient): Promise<FleetStatus> {
  const refresh = ++latestRefresh;
  let next: FleetStatus;
  try {
    const overview = await call(getFleetOverviewEndpoint, {}, client);
    next = { kind: 'ready', overview, fetchedAt: Date.now() };
  } catch (err) {
    next = describeFailure(err, useFleetStore.getState().status);
  }
  // An older answer landing after a newer one must not overwrite it.
  if (refresh === latestRefresh) useFleetStore.setState({ status: next });
  return next;
}

/** Reads the last hour of load samples into the fleet store; a failure keeps the chart it has. */
export async function refreshFleetHistory(client: HttpClient = httpClient): Promise<void> {
  try {
    const history = await call(getFleetLoadHistoryEndpoint, {}, client);
    const cutoff = Date.now() - FLEET_HISTORY_WINDOW_MS;
    useFleetStore.setState({ history: history.samples.filter((s) => Date.parse(s.at) >= cutoff), historyIntervalSeconds: history.intervalSeconds });
  } catch {
    // The live figures say what is wrong; the chart stays as it was.
  }
}

/** Polls while the dashboard is open; returns the function that stops it. Stops by itself on 401/403. */
export function watchFleet(
  client: HttpClient = httpClient,
  intervalMs = FLEET_POLL_INTERVAL_MS,
  historyIntervalMs = FLEET_HISTORY_POLL_INTERVAL_MS,
): () => void {
  let stopped = false;
  const stop = () => {
    stopped = true;
    clearInterval(live);
    clearInterval(history);
  };
  const poll = async () => {
    const status = await refreshFleet(client);
    if (!stopped && (status.kind === 'forbidden' || status.kind === 'signed-out')) stop();
  };
  const live = setInterval(() => void poll(), intervalMs);
  const history = setInterval(() => void refreshFleetHistory(client), historyIntervalMs);
  void poll();
  void refreshFleetHistory(client);
  return stop;
}

function describeFailure(err: unknown, previous: FleetStatus): FleetStatus {
  if (err instanceof UnauthorizedError) return { kind: 'signed-out' };
  if (err instanceof RequestFailedError && err.status === 403) return { kind: 'forbidden' };
  const reason = err instanceof Error ? err.message : String(err);
  const lastOverview = previous.kind === 'ready' ? previous.overview : previous.kind === 'unreachable' ? previous.lastOverview : undefined;
  return { kind: 'unreachable', reason, ...(lastOverview ? { lastOverview } : {}) };
}
