import { Layers } from 'lucide-react';
import { EmptyState } from '../../components/EmptyState.tsx';
import styles from './SceneList.module.css';

/** The column of the project's scenes, in order; filled when the studio loads the project's scene document. */
export function SceneList() {
  return (
    <aside className={styles.column} aria-labelledby="scene-list-heading">
      <h2 id="scene-list-heading" className={styles.heading}>
        Scenes
      </h2>
      <EmptyState icon={<Layers size={28} />} title="No scenes yet">
        <p>The scenes of this project appear here when the studio has loaded it.</p>
      </EmptyState>
    </aside>
  );
}
