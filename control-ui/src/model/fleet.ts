import type { FleetLoadSample, FleetWorker } from '@onair/protocol';

/** Share of a worker's cores in use, 0..1 (a process can briefly use more than its cores: clamp). */
export function workerLoad(worker: Pick<FleetWorker, 'cpuCores' | 'cores'>): number {
  if (worker.cores <= 0) return 0;
  return Math.min(1, Math.max(0, worker.cpuCores / worker.cores));
}

export function loadLevel(load: number): 'ok' | 'busy' | 'full' {
  if (load >= 0.9) return 'full';
  if (load >= 0.7) return 'busy';
  return 'ok';
}

export function formatPercent(share: number): string {
  return `${Math.round(share * 100)} %`;
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 100 || unit === 0 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/** "3 s", "2 min 5 s", "1 h 4 min": for waiting times and uptimes. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
}

export interface ChartSeries {
  /** SVG path `d` in a `width` × `height` box, y growing downwards. */
  path: string;
  max: number;
  latest: number | null;
}

export interface LoadChart {
  width: number;
  height: number;
  /** Busy share of all media-worker cores, 0..1 (scaled to the full height). */
  cpu: ChartSeries;
  /** Sessions running, scaled to the largest count in the window. */
  sessions: ChartSeries;
  /** Sessions waiting, on the sessions' scale. */
  queued: ChartSeries;
  startedAt: string | null;
}

/**
 * Paths of the load chart for the last `windowMs` ending at `now`. Time is the x axis, so a gap in
 * the samples (no leader for a while) shows as a straight stretch rather than being squeezed out.
 */
export function loadChart(samples: readonly FleetLoadSample[], now: number, windowMs: number, width: number, height: number): LoadChart {
  const inWindow = samples.filter((s) => now - Date.parse(s.at) <= windowMs);
  const x = (at: string) => ((Date.parse(at) - (now - windowMs)) / windowMs) * width;
  const sessionMax = Math.max(1, ...inWindow.map((s) => Math.max(s.sessions, s.queued)));
  const series = (value: (s: FleetLoadSample) => number, max: number): ChartSeries => {
    const points = inWindow.map((s) => `${round(x(s.at))},${round(height - (Math.min(value(s), max) / max) * height)}`);
    const last = inWindow.at(-1);
    return { path: points.length ? `M${points.join('L')}` : '', max, latest: last ? value(last) : null };
  };
  return {
    width,
    height,
    cpu: series((s) => (s.cores > 0 ? s.cpuCores / s.cores : 0), 1),
    sessions: series((s) => s.sessions, sessionMax),
    queued: series((s) => s.queued, sessionMax),
    startedAt: inWindow[0]?.at ?? null,
  };
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

/** One session on the dashboard: what the admission model charged for it beside what its pipeline measures. */
export interface SessionCostRow {
  sessionId: string;
  workerId: string;
  estimatedCores: number;
  measuredCores: number | null;
  /** measured ÷ model: under 1 the model over-charges (the worker takes fewer sessions than it could), over 1 it under-charges. */
  ratio: number | null;
}

export function sessionCostRows(workers: readonly FleetWorker[]): SessionCostRow[] {
  return workers
    .filter((w) => w.kind === 'media')
    .flatMap((w) =>
      (w.sessionLoads ?? []).map((l) => ({
        sessionId: l.sessionId,
        workerId: w.id,
        estimatedCores: l.estimatedCores,
        measuredCores: l.measuredCores ?? null,
        ratio: l.measuredCores !== undefined && l.estimatedCores > 0 ? l.measuredCores / l.estimatedCores : null,
      })),
    )
    .sort((a, b) => a.workerId.localeCompare(b.workerId) || a.sessionId.localeCompare(b.sessionId));
}

/** How far the model is from what was measured, as a sentence; null while nothing is measured. */
export function modelVerdict(rows: readonly SessionCostRow[]): string | null {
  const ratios = rows.flatMap((r) => (r.ratio === null ? [] : [r.ratio])).sort((a, b) => a - b);
  if (ratios.length === 0) return null;
  const median = ratios[Math.floor(ratios.length / 2)]!;
  const of = `${ratios.length} session${ratios.length === 1 ? '' : 's'}`;
  if (median >= 0.75 && median <= 1.25) return `The admission model is within 25 % of what sessions use (median ${median.toFixed(2)}× over ${of}).`;
  return median < 1
    ? `Sessions use ${median.toFixed(2)}× what the admission model charges (median over ${of}): workers take fewer sessions than they could.`
    : `Sessions use ${median.toFixed(2)}× what the admission model charges (median over ${of}): workers take more than they can hold.`;
}
