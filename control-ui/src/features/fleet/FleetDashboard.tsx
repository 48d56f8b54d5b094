import { useEffect, useState } from 'react';
import { Server } from 'lucide-react';
import { FLEET_HISTORY_WINDOW_MS, type FleetLoadSample, type FleetOverview, type FleetWorker } from '@onair/protocol';
import { watchFleet } from '../../actions/fleet.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Table, type TableColumn } from '../../components/Table.tsx';
import { formatBytes, formatDuration, formatPercent, loadLevel, modelVerdict, sessionCostRows, workerLoad, type SessionCostRow } from '../../model/fleet.ts';
import { useFleetStore, type FleetStatus } from '../../stores/index.ts';
import { LoadChart } from './LoadChart.tsx';
import styles from './FleetDashboard.module.css';

/** The fleet part of the operators' dashboard: polls while shown. */
export function FleetDashboard() {
  useEffect(() => watchFleet(), []);
  const status = useFleetStore((s) => s.status);
  const history = useFleetStore((s) => s.history);
  return <FleetView status={status} history={history} />;
}

/** What the fleet store holds, drawn; apart from the store and the polling so it renders in tests as is. */
export function FleetView({ status, history }: { status: FleetStatus; history: readonly FleetLoadSample[] }) {
  const now = useNow(status.kind === 'ready' ? status.fetchedAt : undefined);

  if (status.kind === 'loading') return <p className={styles.message}>Loading the fleet…</p>;
  if (status.kind === 'forbidden') return <EmptyState icon={<Server size={24} />} title="Only administrators can see the fleet." />;
  if (status.kind === 'signed-out') return <EmptyState icon={<Server size={24} />} title="Sign in as an administrator to see the fleet." />;
  const overview = status.kind === 'ready' ? status.overview : status.lastOverview;
  return (
    <>
      {status.kind === 'unreachable' && (
        <p className={styles.warning} role="alert">
          The fleet could not be read: {status.reason}. {overview ? 'Showing the last answer.' : ''}
        </p>
      )}
      {overview && <Overview overview={overview} />}
      <section className={styles.card} aria-label="Load over the last hour">
        <h2 className={styles.heading}>Load, last hour</h2>
        <LoadChart samples={history} now={now} windowMs={FLEET_HISTORY_WINDOW_MS} />
      </section>
      {overview && <Workers workers={overview.workers} now={now} />}
      {overview && <SessionCosts workers={overview.workers} />}
      {overview && <Incidents overview={overview} />}
    </>
  );
}

function Overview({ overview }: { overview: FleetOverview }) {
  const media = overview.workers.filter((w) => w.kind === 'media');
  const render = overview.workers.filter((w) => w.kind === 'render');
  const sessions = media.reduce((n, w) => n + w.sessions, 0);
  const { queue } = overview;
  const tiles = [
    {
      label: 'Media workers',
      value: `${media.filter((w) => w.state === 'running').length}`,
      note: `${media.filter((w) => w.state === 'draining').length} draining`,
    },
    { label: 'Render workers', value: `${render.length}`, note: `${render.reduce((n, w) => n + w.pages, 0)} pages` },
    { label: 'Sessions', value: `${sessions}`, note: `${media.reduce((n, w) => n + w.outputs, 0)} outputs` },
    {
      label: 'Waiting',
      value: `${queue.waiting + queue.delayed}`,
      note: queue.oldestWaitingMs === null ? 'nobody waits' : `longest ${formatDuration(queue.oldestWaitingMs)}`,
    },
  ];
  return (
    <section className={styles.tiles} aria-label="Fleet summary">
      {tiles.map((t) => (
        <div key={t.label} className={styles.tile} data-tile={t.label}>
          <span className={styles.tileLabel}>{t.label}</span>
          <span className={styles.tileValue}>{t.value}</span>
          <span className={styles.tileNote}>{t.note}</span>
        </div>
      ))}
      <p className={styles.leader}>
        Scaling and sampling: {overview.leader ? <code>{overview.leader}</code> : 'no api replica holds the lead'} · updated{' '}
        {new Date(overview.at).toLocaleTimeString()}
      </p>
    </section>
  );
}

function workerColumns(now: number): readonly TableColumn<FleetWorker>[] {
  return [
    {
      key: 'worker',
      header: 'Worker',
      rowHeader: true,
      cell: (w) => (
        <>
          <span className={styles.workerId}>{w.id}</span>
          <span className={styles.workerKind}>
            {w.kind} · {w.host} · v{w.version} · Node {w.node}
          </span>
        </>
      ),
    },
    { key: 'state', header: 'State', cell: (w) => <span data-state={w.state}>{w.state}</span> },
    {
      key: 'cpu',
      header: 'CPU',
      cell: (w) => {
        const load = workerLoad(w);
        return (
          <>
            <span className={styles.meter} data-level={loadLevel(load)} aria-hidden>
              <span className={styles.meterFill} style={{ width: `${Math.round(load * 100)}%` }} />
            </span>
            <span data-cell="cpu">
              {formatPercent(load)} of {w.cores}
            </span>
          </>
        );
      },
    },
    { key: 'memory', header: 'Memory', align: 'end', cell: (w) => formatBytes(w.rssBytes) },
    {
      key: 'sessions',
      header: 'Sessions',
      align: 'end',
      cell: (w) => <span data-cell="sessions">{w.kind === 'media' ? w.sessions : w.pages}</span>,
      title: (w) => w.sessionIds.join('\n') || undefined,
    },
    { key: 'outputs', header: 'Outputs', align: 'end', cell: (w) => w.outputs },
    { key: 'bitrate', header: 'Bitrate', align: 'end', cell: (w) => `${Math.round(w.bitrateKbps)} kbit/s` },
    { key: 'fps', header: 'FPS', align: 'end', cell: (w) => w.fps.toFixed(0) },
    { key: 'dropped', header: 'Dropped', align: 'end', cell: (w) => w.droppedFrames },
    { key: 'up', header: 'Up', align: 'end', cell: (w) => formatDuration(now - Date.parse(w.startedAt)) },
  ];
}

function Workers({ workers, now }: { workers: FleetWorker[]; now: number }) {
  return (
    <section className={styles.card} aria-label="Workers">
      <h2 className={styles.heading}>Workers</h2>
      {workers.length === 0 ? (
        <EmptyState icon={<Server size={24} />} title="No worker is registered.">
          Media and render workers appear here within a second of starting.
        </EmptyState>
      ) : (
        <Table
          aria-label="Workers by load"
          columns={workerColumns(now)}
          rows={workers}
          rowKey={(w) => `${w.kind}:${w.id}`}
          rowProps={(w) => ({ 'data-worker-id': w.id })}
          className={styles.cardTable}
        />
      )}
    </section>
  );
}

const cores = (n: number) => `${n.toFixed(2)} cores`;

const sessionCostColumns: readonly TableColumn<SessionCostRow>[] = [
  { key: 'session', header: 'Session', rowHeader: true, cell: (r) => <code>{r.sessionId.slice(0, 8)}</code>, title: (r) => r.sessionId },
  { key: 'worker', header: 'Worker', cell: (r) => r.workerId },
  { key: 'model', header: 'Model', align: 'end', cell: (r) => cores(r.estimatedCores) },
  { key: 'measured', header: 'Measured', align: 'end', cell: (r) => (r.measuredCores === null ? 'measuring…' : cores(r.measuredCores)) },
  {
    key: 'ratio',
    header: 'Measured ÷ model',
    align: 'end',
    cell: (r) => (r.ratio === null ? '—' : `${r.ratio.toFixed(2)}×`),
    className: (r) => (r.ratio !== null && (r.ratio < 0.75 || r.ratio > 1.25) ? styles.offModel : undefined),
  },
];

/**
 * Each media session's charge in the admission model (what placement counts against a worker's
 * cores) beside the cores its pipeline measures, so a wrong model shows here before it shows as
 * refused or overloaded sessions.
 */
function SessionCosts({ workers }: { workers: FleetWorker[] }) {
  const rows = sessionCostRows(workers);
  const verdict = modelVerdict(rows);
  return (
    <section className={styles.card} aria-label="Sessions: model and measured">
      <h2 className={styles.heading}>Sessions: admission model and measured CPU</h2>
      {verdict && <p className={styles.message}>{verdict}</p>}
      <Table
        aria-label="Sessions by cost"
        columns={sessionCostColumns}
        rows={rows}
        rowKey={(r) => `${r.workerId}:${r.sessionId}`}
        rowProps={(r) => ({ 'data-session-id': r.sessionId })}
        empty="No session runs on a media worker."
        className={styles.cardTable}
      />
    </section>
  );
}

function Incidents({ overview }: { overview: FleetOverview }) {
  return (
    <div className={styles.columns}>
      <section className={styles.card} aria-label="Failed outputs">
        <h2 className={styles.heading}>Failed outputs</h2>
        {overview.failedOutputs.length === 0 ? (
          <p className={styles.message}>No destination output has failed.</p>
        ) : (
          <ul className={styles.list}>
            {overview.failedOutputs.map((o) => (
              <li key={`${o.sessionId}:${o.outputId}`}>
                <code>{o.outputId}</code> of session <code>{o.sessionId.slice(0, 8)}</code>: {o.errorCode ?? 'failed'}
                <span className={styles.when}>{new Date(o.at).toLocaleTimeString()}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className={styles.card} aria-label="Recent failovers">
        <h2 className={styles.heading}>Recent failovers</h2>
        {overview.failovers.length === 0 ? (
          <p className={styles.message}>No session has moved to another worker.</p>
        ) : (
          <ul className={styles.list}>
            {overview.failovers.map((f) => (
              <li key={`${f.projectId}:${f.at}`}>
                <code>{f.projectId.slice(0, 8)}</code> from {f.fromWorkerId ?? 'an unknown worker'} to {f.toWorkerId}
                {f.gapMs !== null && <> after {formatDuration(f.gapMs)}</>}
                <span className={styles.when}>{new Date(f.at).toLocaleTimeString()}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

/** The clock the chart and uptimes use: the time of the last answer, ticking while none comes. */
function useNow(fetchedAt: number | undefined): number {
  const [now, setNow] = useState(() => fetchedAt ?? Date.now());
  useEffect(() => {
    setNow(fetchedAt ?? Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [fetchedAt]);
  return now;
}
