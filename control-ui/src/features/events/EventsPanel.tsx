import { ExternalLink } from 'lucide-react';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { setEventsPoppedOut } from '../../actions/events.ts';
import { hasPermission } from '@onair/protocol';
import { useEventsStore, useStudioStore } from '../../stores/index.ts';
import { EventsFeed } from './EventsFeed.tsx';
import { focusEventsPopout } from './EventsPopout.tsx';
import { AlertsDialog } from './AlertsDialog.tsx';

/** The Event List tab: the feed, or a note while it is open in its popout window (spec §2, 500×600). */
export function EventsPanel() {
  const poppedOut = useEventsStore((s) => s.poppedOut);
  // Alerts change the program: the roles that may update the project (the server checks again).
  const canConfigure = hasPermission(
    useStudioStore((s) => s.project?.role),
    'update project',
  );
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
      <EventsFeed onPopout={() => setEventsPoppedOut(true)} canConfigure={canConfigure} />
      <AlertsDialog />
    </>
  );
}
