import { useRef } from 'react';
import { Columns2, Info, LayoutGrid, PanelRight, PictureInPicture2, Presentation, User, type LucideIcon } from 'lucide-react';
import { layoutTiles, sceneLayoutIds, sceneLayoutInfo, type SceneLayoutId } from '@onair/protocol';
import { applyLayout, stopFollowingLayout } from '../../actions/scene-edits.ts';
import { IconButton } from '../../components/IconButton.tsx';
import { Switch } from '../../components/Switch.tsx';
import { Tooltip } from '../../components/Tooltip.tsx';
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
 * guests, screens and game on both canvases in one edit, and the scene follows that layout (its
 * button stays pressed) so guests fall into place as they arrive. The Follow switch stops that
 * (as dragging one of them by hand does) and turns it back on with the layout last followed here.
 * The buttons are off while the scene has nothing to arrange, and the reason is said next to them.
 */
export function LayoutBar() {
  const document = useStudioStore((s) => s.document);
  const canEdit = useStudioStore((s) => s.status === 'ready');
  const scene = document?.scenes.find((s) => s.id === document.activeSceneId);
  // The layout each scene followed last in this studio, so the switch can take it up again.
  const lastFollowed = useRef(new Map<string, SceneLayoutId>());
  if (!document || !scene) return null;
  const tiles = layoutTiles(scene, document.sources).length;
  const followed = scene.followedLayout?.layout;
  if (followed) lastFollowed.current.set(scene.id, followed);
  const resume = lastFollowed.current.get(scene.id);
  const followHint = followHintOf(followed, resume);
  const sourcesHint = arrangeHintOf(tiles);
  return (
    <div className={styles.bar} role="group" aria-label="Layouts">
      <span className={styles.title}>Layout</span>
      {sceneLayoutIds.map((id) => {
        const Icon = ICONS[id];
        return (
          <button
            key={id}
            type="button"
            className={styles.option}
            title={sceneLayoutInfo[id].description}
            aria-pressed={followed === id}
            disabled={!canEdit || tiles === 0}
            onClick={() => applyLayout(id)}
          >
            <Icon size={16} aria-hidden />
            {sceneLayoutInfo[id].label}
          </button>
        );
      })}
      {tiles === 0 ? (
        <span className={styles.hint}>{sourcesHint}</span>
      ) : (
        <span className={styles.follow} title={followHint} data-testid="layout-follow">
          <Switch
            label="Follow layout"
            checked={followed !== undefined}
            disabled={!canEdit || (!followed && !resume)}
            onCheckedChange={(on) => (on ? resume && applyLayout(resume) : stopFollowingLayout(scene.id))}
          />
          {/* A layout click also switches Follow on: what that means is one hover or focus away. */}
          <Tooltip content={followHint} side="top">
            <IconButton label="What Follow layout does" icon={<Info size={14} />} className={styles.info} />
          </Tooltip>
        </span>
      )}
      {tiles === 1 && (
        <span className={styles.hint} data-testid="layout-one-source">
          {sourcesHint}
        </span>
      )}
    </div>
  );
}

/** What the Follow switch does, in the state it is in: said on hover or focus of its info button. */
export function followHintOf(followed: SceneLayoutId | undefined, resume: SceneLayoutId | undefined): string {
  if (followed)
    return `On: guests and sources that join or leave the scene are arranged in ${sceneLayoutInfo[followed].label}. Moving one by hand switches it off.`;
  if (resume) return `Off: switch it on to arrange the scene in ${sceneLayoutInfo[resume].label} again, and as guests and sources join or leave.`;
  return 'Pick a layout: the scene then follows it as guests and sources join or leave.';
}

/**
 * Beside the layouts when they cannot differ: nothing to arrange, or (issue 52) one source, which
 * every layout shows alone, so the buttons seem to do nothing.
 */
export function arrangeHintOf(tiles: number): string | null {
  if (tiles === 0) return 'Add a camera, guest or screen to arrange it.';
  if (tiles === 1) return 'One source: every layout shows it alone. They differ once a guest, a screen or a second camera joins.';
  return null;
}
