import { Brand } from '../../components/Brand.tsx';
import { StatusIndicator } from '../system/StatusIndicator.tsx';
import { UserMenu } from '../user-menu/UserMenu.tsx';
import { useStudioStore } from '../../stores/index.ts';
import { CanvasSwitch } from './CanvasSwitch.tsx';
import { ProjectName } from './ProjectName.tsx';
import { ResolutionSelector } from './ResolutionSelector.tsx';
import styles from './StudioTopBar.module.css';

export function StudioTopBar() {
  return (
    <header className={styles.bar}>
      <div className={styles.start}>
        <Brand />
        <span className={styles.divider} aria-hidden />
        <ProjectName />
      </div>
      <div className={styles.end}>
        <CanvasSwitch />
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
