import { Plus } from 'lucide-react';
import { useEffect, type ReactNode } from 'react';
import { UPGRADE_TOOLTIP_MORE_DESTINATIONS } from '@onair/protocol';
import { closeDestinations, loadDestinations, openDestinationPicker } from '../../actions/destinations.ts';
import { Button } from '../../components/Button.tsx';
import { Tooltip } from '../../components/Tooltip.tsx';
import { counterText } from '../../model/destinations.ts';
import { useDestinationsStore } from '../../stores/index.ts';
import { AddDestinationPicker } from './AddDestinationPicker.tsx';
import { BroadcastControl } from './BroadcastControl.tsx';
import { DestinationFormDialog } from './DestinationFormDialog.tsx';
import { DestinationRow } from './DestinationRow.tsx';
import { RemoveDestinationDialog } from './RemoveDestinationDialog.tsx';
import styles from './Destinations.module.css';

/**
 * The studio's destinations (spec §2): Go Live, the enabled/total counter, a toggle per destination,
 * Add Destination; `children` go below them in the same scrolling panel (the page puts the Auto Live block there).
 */
export function DestinationsPanel({ projectId, children }: { projectId: string; children?: ReactNode }) {
  useEffect(() => {
    void loadDestinations(projectId);
    return () => closeDestinations();
  }, [projectId]);
  const status = useDestinationsStore((s) => s.status);
  const error = useDestinationsStore((s) => s.error);
  const destinations = useDestinationsStore((s) => s.destinations);
  const limitReached = useDestinationsStore((s) => s.limit?.reached ?? false);

  const add = (
    <Button variant="secondary" onClick={openDestinationPicker} disabled={limitReached || status !== 'ready'} aria-disabled={limitReached}>
      <Plus size={16} aria-hidden /> Add Destination
    </Button>
  );
  return (
    <section className={styles.panel} aria-label="Destinations">
      <BroadcastControl />
      <div className={styles.headingRow}>
        <h2 className={styles.heading}>Destinations</h2>
        <span className={styles.counter} aria-label="Enabled destinations">
          {counterText(destinations)}
        </span>
      </div>
      {status === 'error' && <p className={styles.formError}>{error}</p>}
      <ul className={styles.list}>
        {destinations.map((d) => (
          <DestinationRow key={d.id} destination={d} />
        ))}
      </ul>
      {/* A disabled button gets no pointer events: the tooltip hangs on a wrapper. */}
      {limitReached ? (
        <Tooltip content={UPGRADE_TOOLTIP_MORE_DESTINATIONS}>
          <span tabIndex={0}>{add}</span>
        </Tooltip>
      ) : (
        add
      )}
      {children}
      <AddDestinationPicker />
      <DestinationFormDialog />
      <RemoveDestinationDialog />
    </section>
  );
}
