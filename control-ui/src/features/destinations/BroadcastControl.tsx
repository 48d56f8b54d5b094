import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { canRecord } from '@onair/protocol';
import { askEndBroadcast, requestGoLive, setBroadcastOptions } from '../../actions/destinations.ts';
import { Button } from '../../components/Button.tsx';
import { Select } from '../../components/Select.tsx';
import { Switch } from '../../components/Switch.tsx';
import { encoderNotice, formatElapsed, notOnAirNotice, streamLimitWarning } from '../../model/destinations.ts';
import { useDestinationsStore, useMediaStore, useStudioStore } from '../../stores/index.ts';
import { AutoLiveIndicator, ConsoleSettingsButton } from '../auto-live/AutoLiveBlock.tsx';
import { RECORD_NOTE_ID, RecordNotInPlanNote } from './PlanLimitNotes.tsx';
import styles from './Destinations.module.css';

/**
 * Go Live and End Broadcast, the broadcast timer, and the warning before the plan's stream limit.
 * Beside them, where a console streamer looks (issue 52): Auto Live's state on air, and off air,
 * while Auto Live has no line of its own (`consoleOffered`), the way to the console and encoder settings.
 */
export function BroadcastControl({ consoleOffered = false }: { consoleOffered?: boolean }) {
  const broadcast = useDestinationsStore((s) => s.broadcast);
  const goingLive = useDestinationsStore((s) => s.goingLive);
  const anyEnabled = useDestinationsStore((s) => s.destinations.some((d) => d.enabled));
  const encoder = useDestinationsStore((s) => s.encoder);
  const record = useDestinationsStore((s) => s.record);
  const recordAllowed = useStudioStore((s) => canRecord(s.entitlements));
  const projectId = useStudioStore((s) => s.projectId);
  const preRoll = useDestinationsStore((s) => s.preRollSeconds);
  const postRoll = useDestinationsStore((s) => s.postRollSeconds);
  const waitingForWorker = useMediaStore((s) => s.waitingForWorkerSince !== null);
  const state = broadcast?.state;
  const active = state === 'starting' || state === 'live' || state === 'ending';
  const now = useNow(active);
  if (!active) {
    return (
      <>
        <div className={styles.live}>
          <Button variant="primary" disabled={goingLive || !anyEnabled} onClick={() => void requestGoLive()}>
            {goingLive ? 'Starting…' : 'Go Live'}
          </Button>
          {state === 'failed' && broadcast?.failureReason && <span className={styles.fieldError}>{broadcast.failureReason}</span>}
          {consoleOffered && <ConsoleSettingsButton />}
        </div>
        <div className={styles.recordRow}>
          <Switch
            label={recordAllowed ? 'Record' : 'Record (Premium)'}
            checked={record && recordAllowed}
            disabled={!recordAllowed || goingLive}
            onCheckedChange={(on) => setBroadcastOptions({ record: on })}
            aria-describedby={recordAllowed ? undefined : RECORD_NOTE_ID}
          />
          <Padding label="Pre-roll" value={preRoll} disabled={goingLive} onChange={(v) => setBroadcastOptions({ preRollSeconds: v })} />
          <Padding label="Post-roll" value={postRoll} disabled={goingLive} onChange={(v) => setBroadcastOptions({ postRollSeconds: v })} />
          {!recordAllowed && <RecordNotInPlanNote />}
          {projectId && (
            <Link className={styles.recordingsLink} to={`/projects/${projectId}/recordings`}>
              Recordings
            </Link>
          )}
        </div>
      </>
    );
  }
  const started = broadcast?.startedAt ? new Date(broadcast.startedAt).getTime() : null;
  const warning = streamLimitWarning(broadcast?.endsAt ?? null, now);
  const busy = state === 'live' ? encoderNotice(encoder) : null;
  const notOnAir = notOnAirNotice(state, waitingForWorker);
  return (
    <>
      <div className={styles.live}>
        {broadcast?.recordingId && (
          <span className={styles.rec} role="status">
            REC
          </span>
        )}
        <span className={styles.timer} role="timer" aria-label="Broadcast time">
          {state === 'live' && started !== null ? formatElapsed(now - started) : state === 'starting' ? 'Starting…' : 'Ending…'}
        </span>
        <AutoLiveIndicator />
        <Button variant="secondary" disabled={state === 'ending'} onClick={askEndBroadcast}>
          End Broadcast
        </Button>
      </div>
      {warning && (
        <p className={styles.limitWarning} role="alert">
          {warning}
        </p>
      )}
      {notOnAir && (
        <p className={styles.limitWarning} role="status">
          {notOnAir}
        </p>
      )}
      {busy && (
        <p className={styles.limitWarning} role="status">
          {busy}
        </p>
      )}
    </>
  );
}

const PADDING_CHOICES = [0, 3, 5, 10];

/** Padding at Go Live or End Broadcast (platforms drop the first and last seconds of a stream). */
function Padding({ label, value, disabled, onChange }: { label: string; value: number; disabled: boolean; onChange: (seconds: number) => void }) {
  const id = useId();
  return (
    <div className={styles.padding}>
      <label htmlFor={id}>{label}</label>
      <Select
        id={id}
        value={String(value)}
        disabled={disabled}
        options={PADDING_CHOICES.map((s) => ({ value: String(s), label: s === 0 ? 'Off' : `${s} s` }))}
        onValueChange={(v) => onChange(Number(v))}
      />
    </div>
  );
}

function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}
