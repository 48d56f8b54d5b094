import { BellRing, CalendarClock, ExternalLink, ListFilter, Pause, Play } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { liveEventTypes } from '@onair/protocol';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { IconButton } from '../../components/IconButton.tsx';
import { Menu, MenuCheckboxItem } from '../../components/Menu.tsx';
import { loadMoreEvents, setEventTypeShown, toggleEventsPaused } from '../../actions/events.ts';
import { openAlerts } from '../../actions/alerts.ts';
import { useEventsStore } from '../../stores/index.ts';
import { EVENT_KINDS, isKnownType } from './event-kinds.tsx';
import { EventRow } from './EventRow.tsx';
import styles from './Events.module.css';

/** Re-renders every 30 s so §9's relative times move on. */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * Spec §2 Events feed: the rows newest first, pause/play (events arriving while paused wait and are
 * added on resume, spec §4), the type filter (§9 default, remembered in this browser) and, in the
 * side panel, the popout button. The same component fills the popout window.
 */
export function EventsFeed({
  onPopout,
  canConfigure = false,
  portalContainer,
  notice,
}: {
  onPopout?: () => void;
  canConfigure?: boolean;
  portalContainer?: HTMLElement | null;
  /** Under the toolbar: what stops a source of events (a platform that needs sign-in). */
  notice?: ReactNode;
}) {
  const events = useEventsStore((s) => s.events);
  const filter = useEventsStore((s) => s.filter);
  const paused = useEventsStore((s) => s.paused);
  const queued = useEventsStore((s) => s.queued);
  const status = useEventsStore((s) => s.status);
  const error = useEventsStore((s) => s.error);
  const nextCursor = useEventsStore((s) => s.nextCursor);
  const loadingMore = useEventsStore((s) => s.loadingMore);
  const now = useNow();
  const passes = (type: string) => filter.includes(type) || !isKnownType(type);
  const shown = events.filter((e) => passes(e.type));
  const waiting = queued.filter((e) => passes(e.type)).length;

  return (
    <section className={styles.feed} aria-label="Events feed">
      <div className={styles.toolbar} role="toolbar" aria-label="Events feed controls">
        <IconButton
          label={paused ? 'Resume events' : 'Pause events'}
          icon={paused ? <Play size={16} /> : <Pause size={16} />}
          onClick={toggleEventsPaused}
          aria-pressed={paused}
        />
        <span className={styles.status} aria-live="polite">
          {paused ? (waiting > 0 ? `${waiting} waiting` : 'Paused') : 'Live'}
        </span>
        <Menu
          container={portalContainer}
          label="Show event types"
          trigger={
            <button type="button" className={styles.filterButton} aria-label="Filter events">
              <ListFilter size={16} aria-hidden />
              <span>Filter</span>
              <span className={styles.count}>{filter.filter((t) => (liveEventTypes as readonly string[]).includes(t)).length}</span>
            </button>
          }
        >
          {liveEventTypes.map((type) => (
            <MenuCheckboxItem
              key={type}
              checked={filter.includes(type)}
              onCheckedChange={(checked) => setEventTypeShown(type, checked)}
              icon={
                <span className={styles.menuIcon} style={{ color: EVENT_KINDS[type].color }} aria-hidden>
                  {EVENT_KINDS[type].icon(14)}
                </span>
              }
            >
              {EVENT_KINDS[type].name}
            </MenuCheckboxItem>
          ))}
        </Menu>
        {canConfigure && <IconButton label="Alerts in the program" icon={<BellRing size={16} />} onClick={() => void openAlerts()} />}
        {onPopout && <IconButton label="Open the events feed in its own window" icon={<ExternalLink size={16} />} onClick={onPopout} />}
      </div>
      {notice}
      {error && status === 'error' && <p className={styles.error}>{error}</p>}
      {shown.length === 0 ? (
        <EmptyState icon={<CalendarClock size={28} />} title={status === 'loading' ? 'Loading events…' : 'No events yet'}>
          <p>Follows, subscriptions, raids, cheers, tips and donations from your platforms appear here as they happen.</p>
        </EmptyState>
      ) : (
        <ol className={styles.list} aria-label="Events">
          {shown.map((e) => (
            <EventRow key={e.id} event={e} now={now} />
          ))}
          {nextCursor && (
            <li className={styles.more}>
              <Button variant="secondary" onClick={() => void loadMoreEvents()} disabled={loadingMore}>
                {loadingMore ? 'Loading…' : 'Older events'}
              </Button>
            </li>
          )}
        </ol>
      )}
    </section>
  );
}
