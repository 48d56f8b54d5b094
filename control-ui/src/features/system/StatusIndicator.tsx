import { useEffect } from 'react';
import { watchReadiness } from '../../actions/system.ts';
import { Tooltip } from '../../components/Tooltip.tsx';
import { readinessParts } from '../../model/readiness.ts';
import { useSystemStore, type ReadinessStatus } from '../../stores/index.ts';
import styles from './StatusIndicator.module.css';

const LABELS: Record<ReadinessStatus['kind'], string> = {
  checking: 'Checking',
  ready: 'Ready',
  degraded: 'Degraded',
  unreachable: 'Offline',
};

/** The top bar's small light: are the api and its workers up? Details in the tooltip. */
export function StatusIndicator() {
  const status = useSystemStore((state) => state.readiness);
  // Watch only while someone can see the answer.
  useEffect(() => watchReadiness(), []);

  return (
    <Tooltip content={<StatusDetails status={status} />}>
      <button type="button" className={styles.indicator} data-status={status.kind} aria-label={`Server status: ${LABELS[status.kind]}`}>
        <span className={styles.light} aria-hidden />
        <span>{LABELS[status.kind]}</span>
      </button>
    </Tooltip>
  );
}

function StatusDetails({ status }: { status: ReadinessStatus }) {
  if (status.kind === 'checking') return <p>Asking the server how it is…</p>;
  if (status.kind === 'unreachable') return <p>The OnAir server did not answer: {status.reason}</p>;
  return (
    <ul className={styles.parts}>
      {readinessParts(status.readiness).map((part) => (
        <li key={part.label} data-ok={part.ok}>
          {part.ok ? '●' : '○'} {part.label}: {part.ok ? 'up' : (part.detail ?? 'down')}
        </li>
      ))}
    </ul>
  );
}
