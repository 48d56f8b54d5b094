import { LoaderCircle } from 'lucide-react';
import { useStudioStore } from '../../stores/index.ts';
import styles from './StudioLoading.module.css';

/**
 * Covers the whole studio while it opens the project, so the first thing a creator sees is not a
 * half-drawn studio with empty panels; gone as soon as the scene document is in (or opening failed,
 * which the canvas then explains).
 */
export function StudioLoading() {
  const loading = useStudioStore((s) => s.status === 'idle' || s.status === 'loading');
  if (!loading) return null;
  return (
    <div className={styles.cover} role="status" aria-label="Opening the studio" data-testid="studio-loading">
      <LoaderCircle size={28} className={styles.spinner} aria-hidden />
      <p className={styles.text}>Opening your studio…</p>
    </div>
  );
}
