import { Plus } from 'lucide-react';
import { useEffect, type ReactNode } from 'react';
import { UPGRADE_TOOLTIP_MORE_DESTINATIONS } from '@onair/protocol';
import { closeDestinations, loadDestinations, openDestinationPicker } from '../../actions/destinations.ts';
import { closeLocalStreams } from '../../actions/local-stream.ts';
import { Button } from '../../components/Button.tsx';
import { Tooltip } from '../../components/Tooltip.tsx';
import { counterText } from '../../model/destinations.ts';
import { useDestinationsStore } from '../../stores/index.ts';
import { AddDestinationPicker } from './AddDestinationPicker.tsx';
import { BroadcastControl } from './BroadcastControl.tsx';
import { DestinationFormDialog } from './DestinationFormDialog.tsx';
import { DestinationRow } from './DestinationRow.tsx';
import { LocalWatchPlayer } from './LocalWatchPlayer.tsx';
import { RemoveDestinationDialog } from './RemoveDestinationDialog.tsx';
import { DESTINATION_LIMIT_NOTE_ID, DestinationLimitNote } from './PlanLimitNotes.tsx';
import styles from './Destinations.module.css';

/**
 * The studio's destinations (spec §2): Go Live, the enabled/total counter with Add Destination, a
 * toggle per destination; `children` go below the list (the page puts the Auto Live block there).
 */
export function DestinationsPanel({ projectId, children }: { projectId: string; children?: ReactNode }) {
  useEffect(() => {
    void loadDestinations(projectId);
    return () => {
      closeDestinations();
      closeLocalStreams();
    };
  }, [projectId]);
  const status = useDestinationsStore((s) => s.status);
  const error = useDestinationsStore((s) => s.error);
  const destinations = useDestinationsStore((s) => s.destinations);
  const limitReached = useDestinationsStore((s) => s.limit?.reached ?? false);
  const maximum = useDestinationsStore((s) => s.limit?.maximum);
  // Which listed platforms are the one-machine stack's doubles (a string, so the selector stays stable).
  const testModeText = useDestinationsStore((s) => {
    const types = new Set(s.destinations.map((d) => d.type));
    return (s.picker?.tiles ?? [])
      .filter((t) => t.testMode && types.has(t.type))
      .map((t) => t.label)
      .join('|');
  });
  const testModeLabels = testModeText ? testModeText.split('|') : [];

  const add = (
    <Button
      variant="secondary"
      className={styles.addButton}
      onClick={openDestinationPicker}
      disabled={limitReached || status !== 'ready'}
      aria-disabled={limitReached}
      aria-describedby={limitReached ? DESTINATION_LIMIT_NOTE_ID : undefined}
    >
      <Plus size={16} aria-hidden /> Add Destination
    </Button>
  );
  return (
    <section className={styles.panel} aria-label="Destinations">
      <BroadcastControl />
      <div className={styles.headingRow}>
        <h2 className={styles.heading}>Destinations</h2>
        <div className={styles.headingActions}>
          <span className={styles.counter} aria-label="Enabled destinations">
            {counterText(destinations)}
          </span>
          {/* Beside the heading, so it shows however many destinations the list holds. A disabled button gets no pointer events: the tooltip hangs on a wrapper. */}
          {limitReached ? (
            <Tooltip content={UPGRADE_TOOLTIP_MORE_DESTINATIONS}>
              <span tabIndex={0}>{add}</span>
            </Tooltip>
          ) : (
            add
          )}
        </div>
      </div>
      {limitReached && <DestinationLimitNote maximum={maximum} />}
      {status === 'error' && <p className={styles.formError}>{error}</p>}
      {status === 'ready' && destinations.length === 0 && <p className={styles.empty}>Add a destination to choose where your stream goes.</p>}
      {destinations.length > 0 && (
        <ul className={styles.list} aria-label="Your destinations">
          {destinations.map((d) => (
            <DestinationRow key={d.id} destination={d} />
          ))}
        </ul>
      )}
      {testModeLabels.length > 0 && (
        <p className={styles.testModeNote}>
          <span>Test mode: {testModeLabels.join(', ')}</span>
          <a href={`/projects/${projectId}/test-mode`} target="_blank" rel="noopener">
            Act as the audience
          </a>
        </p>
      )}
      {children}
      <AddDestinationPicker />
      <DestinationFormDialog />
      <RemoveDestinationDialog />
      <LocalWatchPlayer />
    </section>
  );
}
