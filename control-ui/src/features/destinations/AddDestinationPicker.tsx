import type { DestinationTile } from '@onair/protocol';
import { openAccountSettings } from '../../actions/account-settings.ts';
import { closeDestinationPicker, startAddDestination } from '../../actions/destinations.ts';
import { Button } from '../../components/Button.tsx';
import { Modal } from '../../components/Modal.tsx';
import { Tooltip } from '../../components/Tooltip.tsx';
import { useDestinationsStore } from '../../stores/index.ts';
import styles from './Destinations.module.css';

// A stable empty list: a selector that returns a new array each time re-renders forever.
const NO_TILES: DestinationTile[] = [];

/** Spec §2: one tile per platform; a tile the plan lacks shows its upgrade tooltip and an Upgrade button on hover. */
export function AddDestinationPicker() {
  const open = useDestinationsStore((s) => s.pickerOpen);
  const tiles = useDestinationsStore((s) => s.picker?.tiles ?? NO_TILES);
  const upgrade = () => {
    closeDestinationPicker();
    openAccountSettings('plan');
  };
  return (
    <Modal open={open} onClose={closeDestinationPicker} title="Add Destination" description="Choose where to stream." size="large">
      <div className={styles.tiles}>
        {tiles.map((tile) => {
          const body = (
            <div
              key={tile.type}
              role="button"
              tabIndex={tile.available ? 0 : -1}
              aria-disabled={!tile.available || tile.locked}
              className={styles.tile}
              data-locked={tile.locked}
              data-testid={`destination-tile-${tile.type}`}
              style={{ ['--tile-color' as string]: tile.brandColor }}
              onClick={() => tile.available && !tile.locked && startAddDestination(tile.type)}
              onKeyDown={(e) => {
                if ((e.key === 'Enter' || e.key === ' ') && tile.available && !tile.locked) startAddDestination(tile.type);
              }}
            >
              <span>{tile.label}</span>
              {!tile.available && <span className={styles.kind}>Not available</span>}
              {tile.locked && (
                <Button variant="primary" className={styles.upgrade} onClick={upgrade}>
                  Upgrade
                </Button>
              )}
            </div>
          );
          return tile.locked && tile.upgradeTooltip ? (
            <Tooltip key={tile.type} content={tile.upgradeTooltip}>
              {body}
            </Tooltip>
          ) : (
            body
          );
        })}
      </div>
    </Modal>
  );
}
