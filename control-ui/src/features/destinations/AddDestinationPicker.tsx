import { destinationKinds, type DestinationTile } from '@onair/protocol';
import { closeDestinationPicker, pickDestination } from '../../actions/destinations.ts';
import { Button } from '../../components/Button.tsx';
import { Modal } from '../../components/Modal.tsx';
import { useOpenAccountSettings } from '../account-settings/use-open-account-settings.ts';
import { Tooltip } from '../../components/Tooltip.tsx';
import { useDestinationsStore } from '../../stores/index.ts';
import styles from './Destinations.module.css';

// A stable empty list: a selector that returns a new array each time re-renders forever.
const NO_TILES: DestinationTile[] = [];

/** What a one-click tile does, in a line under its name. */
const ONE_CLICK_NOTE = 'One click, no account: streams to this machine';

const isOneClick = (tile: DestinationTile) => tile.available && destinationKinds[tile.type].connection === 'local';

/** Spec §2: one tile per platform; a tile the plan lacks shows its upgrade tooltip and an Upgrade button on hover. */
export function AddDestinationPicker() {
  const open = useDestinationsStore((s) => s.pickerOpen);
  const offered = useDestinationsStore((s) => s.picker?.tiles ?? NO_TILES);
  // A newcomer without any account can go live at once: the one-click tiles come first.
  const tiles = [...offered.filter(isOneClick), ...offered.filter((t) => !isOneClick(t))];
  const openAccountSettings = useOpenAccountSettings();
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
              data-one-click={isOneClick(tile) || undefined}
              onClick={() => tile.available && !tile.locked && void pickDestination(tile.type)}
              onKeyDown={(e) => {
                if ((e.key === 'Enter' || e.key === ' ') && tile.available && !tile.locked) void pickDestination(tile.type);
              }}
            >
              <span>{tile.label}</span>
              {isOneClick(tile) && <span className={styles.kind}>{ONE_CLICK_NOTE}</span>}
              {!tile.available && <span className={styles.kind}>Not available</span>}
              {tile.available && tile.testMode && (
                <span className={styles.testMode} title={`No real ${tile.label} account: a stand-in on this machine, and the stream stays here`}>
                  Test mode
                </span>
              )}
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
