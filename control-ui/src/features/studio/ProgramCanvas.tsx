import { MonitorPlay } from 'lucide-react';
import type { CSSProperties } from 'react';
import { EmptyState } from '../../components/EmptyState.tsx';
import { useAppStore } from '../../stores/index.ts';
import styles from './ProgramCanvas.module.css';

/**
 * The program: what goes on air. Its box keeps the canvas's aspect ratio (16:9 by default) at any
 * window size; the picture itself is the media worker's preview stream once a session runs.
 */
export function ProgramCanvas() {
  const canvas = useAppStore((state) => state.canvas);
  const ratio = { '--canvas-ratio': canvas.width / canvas.height } as CSSProperties;
  return (
    <section className={styles.stage} aria-label="Program">
      <div className={styles.canvas} style={ratio} data-testid="program-canvas">
        <EmptyState icon={<MonitorPlay size={36} />} title="Program preview">
          <p>
            The program appears here when the studio session starts. Canvas {canvas.width} × {canvas.height}.
          </p>
        </EmptyState>
      </div>
    </section>
  );
}
