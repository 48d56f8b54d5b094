import { RectangleHorizontal, RectangleVertical } from 'lucide-react';
import { canvasKinds, type CanvasKind } from '@onair/protocol';
import { setEditCanvas } from '../../actions/studio.ts';
import { useStudioStore } from '../../stores/index.ts';
import styles from './CanvasSwitch.module.css';

const LABELS: Record<CanvasKind, string> = { horizontal: 'Horizontal', vertical: 'Vertical' };
const ICONS: Record<CanvasKind, typeof RectangleHorizontal> = { horizontal: RectangleHorizontal, vertical: RectangleVertical };

/**
 * Which canvas the editor shows: the 16:9 program or the 9:16 one that vertical destinations get.
 * Both are the same scenes and sources; only where the layers sit differs.
 */
export function CanvasSwitch() {
  const current = useStudioStore((s) => s.editCanvas);
  const ready = useStudioStore((s) => s.document !== null);
  if (!ready) return null;
  return (
    <div className={styles.switch} role="group" aria-label="Canvas">
      {canvasKinds.map((canvas) => {
        const Icon = ICONS[canvas];
        return (
          <button
            key={canvas}
            type="button"
            className={styles.option}
            aria-pressed={canvas === current}
            title={canvas === 'horizontal' ? 'Edit the 16:9 layout' : 'Edit the 9:16 layout for vertical destinations'}
            onClick={() => setEditCanvas(canvas)}
          >
            <Icon size={16} aria-hidden />
            {LABELS[canvas]}
          </button>
        );
      })}
    </div>
  );
}
