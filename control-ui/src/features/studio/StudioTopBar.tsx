import { Brand } from '../../components/Brand.tsx';
import { StatusIndicator } from '../system/StatusIndicator.tsx';
import { UserMenu } from '../user-menu/UserMenu.tsx';
import { useStudioStore } from '../../stores/index.ts';
import { ResolutionSelector } from './ResolutionSelector.tsx';
import styles from './StudioTopBar.module.css';

export interface StudioTopBarProps {
  projectId: string;
}

export function StudioTopBar({ projectId }: StudioTopBarProps) {
  return (
    <header className={styles.bar}>
      <div className={styles.start}>
        <Brand />
        <span className={styles.divider} aria-hidden />
        <span className={styles.project}>
          Project <code className={styles.projectId}>{projectId}</code>
        </span>
      </div>
      <div className={styles.end}>
        <ResolutionSelector />
        <LiveUpdates />
        <StatusIndicator />
        <UserMenu />
      </div>
    </header>
  );
}

/** Whether other studios' edits arrive live (the /ws channel), in words. */
function LiveUpdates() {
  const connection = useStudioStore((s) => s.connection);
  const status = useStudioStore((s) => s.status);
  if (status !== 'ready') return null;
  const text = connection === 'live' ? 'Synced' : 'Reconnecting…';
  return (
    <span className={styles.sync} data-connection={connection} role="status">
      {text}
    </span>
  );
}
