import type { FleetLoadSample } from '@onair/protocol';
import { formatPercent, loadChart } from '../../model/fleet.ts';
import styles from './LoadChart.module.css';

const WIDTH = 720;
const HEIGHT = 160;

export interface LoadChartProps {
  samples: readonly FleetLoadSample[];
  now: number;
  windowMs: number;
}

/** The fleet's load over the last hour: busy share of the media workers' cores, sessions running and waiting. */
export function LoadChart({ samples, now, windowMs }: LoadChartProps) {
  const chart = loadChart(samples, now, windowMs, WIDTH, HEIGHT);
  const summary =
    chart.cpu.latest === null
      ? 'No samples yet'
      : `Now: ${formatPercent(chart.cpu.latest)} of media cores busy, ${chart.sessions.latest} sessions, ${chart.queued.latest} waiting`;
  return (
    <figure className={styles.figure}>
      <svg
        className={styles.chart}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Load over the last hour. ${summary}.`}
      >
        {[0.25, 0.5, 0.75].map((f) => (
          <line key={f} className={styles.grid} x1={0} x2={WIDTH} y1={HEIGHT * f} y2={HEIGHT * f} />
        ))}
        {chart.cpu.path && <path className={styles.cpu} d={chart.cpu.path} data-series="cpu" />}
        {chart.sessions.path && <path className={styles.sessions} d={chart.sessions.path} data-series="sessions" />}
        {chart.queued.path && <path className={styles.queued} d={chart.queued.path} data-series="queued" />}
      </svg>
      <figcaption className={styles.caption}>
        <span className={styles.axis}>1 h ago</span>
        <span className={styles.legend}>
          <span className={styles.key} data-series="cpu">
            CPU (of 100 %)
          </span>
          <span className={styles.key} data-series="sessions">
            Sessions (of {chart.sessions.max})
          </span>
          <span className={styles.key} data-series="queued">
            Waiting
          </span>
        </span>
        <span className={styles.axis}>now</span>
      </figcaption>
      <p className={styles.summary}>{summary}</p>
    </figure>
  );
}
