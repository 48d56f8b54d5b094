import { CalendarClock } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { ScheduledBroadcast, Upload } from '@onair/protocol';
import { cancelSchedule, loadSchedules } from '../../actions/schedules.ts';
import { Button } from '../../components/Button.tsx';
import { upcoming } from '../../model/schedules.ts';
import { useSchedulesStore } from '../../stores/index.ts';
import styles from './MediaLibraryDialog.module.css';

function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}

function ScheduleRow({ schedule, name, projectId }: { schedule: ScheduledBroadcast; name: string; projectId: string }) {
  const cancelling = useSchedulesStore((s) => s.cancelling === schedule.id);
  const [confirming, setConfirming] = useState(false);
  return (
    <li className={styles.uploadRow} data-testid="scheduled-broadcast">
      <div className={styles.thumb}>
        <CalendarClock size={22} aria-hidden />
      </div>
      <div className={styles.details}>
        <span className={styles.name}>{name}</span>
        <span className={schedule.state === 'failed' ? styles.error : styles.meta}>
          {when(schedule.startAt)}
          {schedule.state === 'live' && ' · On air now'}
          {schedule.state === 'failed' && ` · Did not go out: ${schedule.failureReason ?? 'the broadcast could not start.'}`}
        </span>
      </div>
      {schedule.state === 'scheduled' && !confirming && (
        <Button variant="secondary" onClick={() => setConfirming(true)}>
          Cancel…
        </Button>
      )}
      {confirming && (
        <div className={styles.confirm} role="alertdialog" aria-label={`Cancel the broadcast of ${name}?`}>
          <span className={styles.meta}>Cancel this broadcast? Nothing goes live at {when(schedule.startAt)}.</span>
          <Button variant="secondary" onClick={() => setConfirming(false)} disabled={cancelling}>
            Keep it
          </Button>
          <Button
            variant="primary"
            disabled={cancelling}
            onClick={() => {
              void cancelSchedule(projectId, schedule.id).then(() => setConfirming(false));
            }}
          >
            Cancel broadcast
          </Button>
        </div>
      )}
    </li>
  );
}

/** The Media dialog's list of scheduled video broadcasts ('stream a video file as live'), with their cancel. */
export function ScheduledBroadcasts({
  projectId,
  open,
  uploads,
  headingId,
}: {
  projectId: string;
  open: boolean;
  uploads: readonly Upload[];
  headingId: string;
}) {
  const { scheduled, status, error } = useSchedulesStore();
  useEffect(() => {
    if (open) void loadSchedules(projectId);
  }, [open, projectId]);
  const shown = upcoming(scheduled);
  const nameOf = (uploadId: string) => uploads.find((u) => u.id === uploadId)?.name ?? 'A deleted video';
  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <h3 id={headingId} className={styles.heading}>
        Scheduled broadcasts
      </h3>
      {status === 'failed' ? (
        <p className={styles.error} role="alert">
          The scheduled broadcasts could not be read: {error}
        </p>
      ) : shown.length === 0 ? (
        <p className={styles.hint}>
          {status === 'loading' ? 'Loading…' : 'Nothing scheduled. Use the calendar button of a video above to stream it as live at a time you choose.'}
        </p>
      ) : (
        <ul className={styles.list} aria-label="Scheduled broadcasts">
          {shown.map((schedule) => (
            <ScheduleRow key={schedule.id} schedule={schedule} name={nameOf(schedule.uploadId)} projectId={projectId} />
          ))}
        </ul>
      )}
    </section>
  );
}
