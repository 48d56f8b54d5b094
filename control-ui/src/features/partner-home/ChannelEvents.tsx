import { Pause, Play, Radio } from 'lucide-react';
import { useEffect, useState } from 'react';
import { liveEventTypes } from '@onair/protocol';
import { closeChannelEvents, followChannelEvents, loadMoreChannelEvents, openChannelEvents, toggleChannelEventsPaused } from '../../actions/channel-events.ts';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Select } from '../../components/Select.tsx';
import { useChannelEventsStore } from '../../stores/index.ts';
import { EVENT_KINDS } from '../events/event-kinds.tsx';
import { EventRow } from '../events/EventRow.tsx';
import styles from './Partner.module.css';

const ALL = 'all';
const typeOptions = [{ value: ALL, label: 'All events' }, ...liveEventTypes.map((t) => ({ value: t, label: EVENT_KINDS[t].name }))];

/**
 * The events feed of the partner area (issue 40 item 5): the channel's follows, subs, raids, tips…
 * from every project and platform, newest first, with pause/resume (events that arrive meanwhile
 * wait, spec §4) and a type filter. New events arrive live over `/ws` while it is open, as in the studio.
 */
export function ChannelEvents({ channelId }: { channelId: string }) {
  const events = useChannelEventsStore((s) => s.events);
  const queued = useChannelEventsStore((s) => s.queued);
  const paused = useChannelEventsStore((s) => s.paused);
  const error = useChannelEventsStore((s) => s.error);
  const nextCursor = useChannelEventsStore((s) => s.nextCursor);
  const loading = useChannelEventsStore((s) => s.loading);
  const [type, setType] = useState(ALL);
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    void openChannelEvents(channelId, type === ALL ? [] : [type]);
  }, [channelId, type]);
  useEffect(() => followChannelEvents(channelId), [channelId]);
  useEffect(() => {
    // Relative times ('3d') move on while the page stays open.
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => closeChannelEvents, []);
  return (
    <section className={styles.card} aria-label="Events feed">
      <h2 className={styles.cardTitle}>Events</h2>
      <div className={styles.actions} role="toolbar" aria-label="Events feed controls">
        <Button onClick={toggleChannelEventsPaused} aria-pressed={paused}>
          {paused ? <Play size={16} aria-hidden /> : <Pause size={16} aria-hidden />}
          {paused ? `Resume${queued.length > 0 ? ` (${queued.length} new)` : ''}` : 'Pause'}
        </Button>
        <Select aria-label="Event type" value={type} options={typeOptions} onValueChange={setType} />
      </div>
      {error && (
        <p role="alert" className={styles.formError}>
          {error}
        </p>
      )}
      {!loading && events.length === 0 && !error ? (
        <EmptyState icon={<Radio size={32} />} title="No events yet">
          Follows, subscriptions, raids, cheers and tips from every platform you stream to appear here.
        </EmptyState>
      ) : (
        <ul className={styles.list} aria-label="Channel events">
          {events.map((e) => (
            <EventRow key={e.id} event={e} now={now} />
          ))}
        </ul>
      )}
      {nextCursor && (
        <Button variant="ghost" onClick={() => void loadMoreChannelEvents()}>
          Show older events
        </Button>
      )}
    </section>
  );
}
