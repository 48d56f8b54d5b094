import { AppWindow, Camera, Film, Gamepad2, Image, Layers, MonitorUp, Plus, Stamp, User, Mic } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { sourceGroups, sourceKindInfo, type SourceKind } from '@onair/protocol';
import { addSourceToScene } from '../../actions/scene-edits.ts';
import { Button } from '../../components/Button.tsx';
import { Menu, MenuItem, MenuLabel, MenuSeparator } from '../../components/Menu.tsx';
import { useStudioStore } from '../../stores/index.ts';
import { MediaLibraryDialog } from '../uploads/MediaLibraryDialog.tsx';
import { OverlayPickerDialog } from './OverlayPickerDialog.tsx';
import styles from './SourcePicker.module.css';

const ICONS: Record<SourceKind, ReactNode> = {
  webcam: <Camera size={16} aria-hidden />,
  screenshare: <MonitorUp size={16} aria-hidden />,
  microphone: <Mic size={16} aria-hidden />,
  game: <Gamepad2 size={16} aria-hidden />,
  participant: <User size={16} aria-hidden />,
  webpage: <AppWindow size={16} aria-hidden />,
  watermark: <Stamp size={16} aria-hidden />,
  image: <Image size={16} aria-hidden />,
  video: <Film size={16} aria-hidden />,
};

const KINDS = Object.keys(sourceKindInfo) as SourceKind[];

/** The source picker, grouped Capture, 3rd Party Integrations and Hidden (spec §3). */
export function SourcePicker() {
  const document = useStudioStore((s) => s.document);
  const [libraryOpen, setLibraryOpen] = useState(false);
  const [overlaysOpen, setOverlaysOpen] = useState(false);
  const scene = document?.scenes.find((s) => s.id === document.activeSceneId);
  const kindsInScene = new Set(scene?.layers.map((l) => document?.sources.find((s) => s.id === l.sourceId)?.kind));

  // Spec §5: one game source per scene; the logo once per scene.
  const reason = (kind: SourceKind): string | null => {
    if (kind === 'game' && kindsInScene.has('game')) return 'You can only add one game source to each scene';
    if (kind === 'watermark' && kindsInScene.has('watermark')) return 'This scene already shows the logo';
    return null;
  };

  return (
    <>
      <Menu
        label="Add source"
        trigger={
          <Button variant="secondary" disabled={!scene}>
            <Plus size={16} aria-hidden />
            Add source
          </Button>
        }
      >
        {sourceGroups.map((group, index) => (
          <div key={group} role="group" aria-label={group}>
            {index > 0 && <MenuSeparator />}
            <MenuLabel>{group}</MenuLabel>
            {KINDS.filter((kind) => sourceKindInfo[kind].group === group).map((kind) => {
              const why = reason(kind);
              return (
                <MenuItem
                  key={kind}
                  icon={ICONS[kind]}
                  disabled={why !== null}
                  onSelect={() => (kind === 'image' || kind === 'video' ? setLibraryOpen(true) : addSourceToScene(kind))}
                >
                  {sourceKindInfo[kind].label}
                  {why && <span className={styles.reason}>{why}</span>}
                </MenuItem>
              );
            })}
            {group === '3rd Party Integrations' && (
              <MenuItem icon={<Layers size={16} aria-hidden />} onSelect={() => setOverlaysOpen(true)}>
                OnAir overlay
              </MenuItem>
            )}
          </div>
        ))}
      </Menu>
      <OverlayPickerDialog open={overlaysOpen} onClose={() => setOverlaysOpen(false)} />
      {document && <MediaLibraryDialog open={libraryOpen} projectId={document.projectId} onClose={() => setLibraryOpen(false)} />}
    </>
  );
}
