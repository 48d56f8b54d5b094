import { Columns2, LayoutGrid, PanelRight, PictureInPicture2, Presentation, User, type LucideIcon } from 'lucide-react';
import { layoutTiles, sceneLayoutIds, sceneLayoutInfo, type SceneLayoutId } from '@onair/protocol';
import { applyLayout } from '../../actions/scene-edits.ts';
import { useStudioStore } from '../../stores/index.ts';
import styles from './LayoutBar.module.css';

const ICONS: Record<SceneLayoutId, LucideIcon> = {
  solo: User,
  'side-by-side': Columns2,
  grid: LayoutGrid,
  'picture-in-picture': PictureInPicture2,
  'screen-strip': PanelRight,
  speaker: Presentation,
};

/**
 * One-click layouts for the active scene (issue 38): each button arranges the scene's cameras,
 * guests, screens and game on both canvases in one edit. Shown while a scene is open; the buttons
 * are off while the scene has nothing to arrange, and the reason is said next to them.
 */
export function LayoutBar() {
  const document = useStudioStore((s) => s.document);
  const canEdit = useStudioStore((s) => s.status === 'ready');
  const scene = document?.scenes.find((s) => s.id === document.activeSceneId);
  if (!document || !scene) return null;
  const tiles = layoutTiles(scene, document.sources).length;
  return (
    <div className={styles.bar} role="group" aria-label="Layouts">
      <span className={styles.title}>Layout</span>
      {sceneLayoutIds.map((id) => {
        const Icon = ICONS[id];
        return (
          <button key={id} type="button" className={styles.option} title={sceneLayoutInfo[id].description} disabled={!canEdit || tiles === 0} onClick={() => applyLayout(id)}>
            <Icon size={16} aria-hidden />
            {sceneLayoutInfo[id].label}
          </button>
        );
      })}
      {tiles === 0 && <span className={styles.hint}>Add a camera, guest or screen to arrange it.</span>}
    </div>
  );
}
