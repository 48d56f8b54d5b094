import { Check, MonitorCog } from 'lucide-react';
import { setResolution } from '../../actions/scene-edits.ts';
import { Button } from '../../components/Button.tsx';
import { Menu, MenuItem, MenuLabel } from '../../components/Menu.tsx';
import { useStudioStore } from '../../stores/index.ts';
import styles from './ResolutionSelector.module.css';

/** Spec §9: 480p, 720p and 1080p at 30 fps; locked ones say which upgrade unlocks them. */
export function ResolutionSelector() {
  const current = useStudioStore((s) => s.document?.resolution);
  const options = useStudioStore((s) => s.resolution?.options);
  if (!current || !options) return null;
  return (
    <Menu
      label="Resolution"
      trigger={
        <Button variant="ghost" aria-label={`Resolution: ${current}`}>
          <MonitorCog size={16} aria-hidden />
          {current} · 30 fps
        </Button>
      }
    >
      <MenuLabel>Resolution</MenuLabel>
      {options.map((option) => (
        <MenuItem
          key={option.id}
          disabled={!option.available}
          onSelect={() => setResolution(option.id)}
          icon={option.id === current ? <Check size={16} aria-hidden /> : <span className={styles.spacer} />}
        >
          {option.id} ({option.width}×{option.height}, {option.fps} fps)
          {option.upgradeTooltip && <span className={styles.upgrade}>{option.upgradeTooltip}</span>}
        </MenuItem>
      ))}
    </Menu>
  );
}
