import { Brand } from '../../components/Brand.tsx';
import { StatusIndicator } from '../system/StatusIndicator.tsx';
import { UserMenu } from '../user-menu/UserMenu.tsx';
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
        <StatusIndicator />
        <UserMenu />
      </div>
    </header>
  );
}
