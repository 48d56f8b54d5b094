import { ExternalLink } from 'lucide-react';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { setEventsPoppedOut } from '../../actions/events.ts';
import { useMemo } from 'react';
import { destinationKinds, hasPermission } from '@onair/protocol';
import { authenticateDestination } from '../../actions/destinations.ts';
import { useDestinationsStore, useEventsStore, useStudioStore } from '../../stores/index.ts';
import { EventsFeed } from './EventsFeed.tsx';
import { focusEventsPopout } from './EventsPopout.tsx';
import { AlertsDialog } from './AlertsDialog.tsx';
import styles from './Events.module.css';

/** The platforms whose events the feed reads (Twitch live or not, Facebook while live). */
const EVENT_SOURCES = new Set(['Twitch', 'Facebook']);

/** A destination whose platform no longer accepts its access: its events stop until it is reconnected. */
function NeedsSignIn({ canReconnect }: { canReconnect: boolean }) {
  const destinations = useDestinationsStore((s) => s.destinations);
  const stopped = useMemo(() => destinations.filter((d) => d.needsSignIn && EVENT_SOURCES.has(d.type)), [destinations]);
  if (stopped.length === 0) return null;
  return (
    <ul className={styles.notices} aria-label="Event sources">
      {stopped.map((d) => (
        <li key={d.id}>
          <span>
            {d.name}: your {destinationKinds[d.type].label} account needs sign-in; its events are paused.
          </span>
          {canReconnect && (
            <Button variant="primary" onClick={() => authenticateDestination(d.id)}>
              Reconnect
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The Event List tab: the feed, or a note while it is open in its popout window (spec §2, 500×600). */
export function EventsPanel() {
  const poppedOut = useEventsStore((s) => s.poppedOut);
  // Alerts change the program: the roles that may update the project (the server checks again).
  const role = useStudioStore((s) => s.project?.role);
  const canConfigure = hasPermission(role, 'update project');
  if (poppedOut) {
    return (
      <EmptyState icon={<ExternalLink size={28} />} title="The events feed is in its own window">
        <p>It stays live there while you work in the studio.</p>
        <Button variant="secondary" onClick={focusEventsPopout}>
          Show the window
        </Button>{' '}
        <Button variant="secondary" onClick={() => setEventsPoppedOut(false)}>
          Bring it back here
        </Button>
      </EmptyState>
    );
  }
  return (
    <>
      <EventsFeed
        onPopout={() => setEventsPoppedOut(true)}
        canConfigure={canConfigure}
        notice={<NeedsSignIn canReconnect={hasPermission(role, 'manage broadcast')} />}
      />
      <AlertsDialog />
    </>
  );
}
