import { Link } from 'react-router';
import {
  authenticateDestination,
  closeBroadcastSummary,
  closeGoLiveCheck,
  endBroadcast,
  keepBroadcasting,
  requestGoLive,
  skipDestinationForGoLive,
} from '../../actions/destinations.ts';
import { Button } from '../../components/Button.tsx';
import { Modal } from '../../components/Modal.tsx';
import { goLiveProblems } from '../../model/live-panel.ts';
import { useDestinationsStore, useStudioStore } from '../../stores/index.ts';
import styles from './Destinations.module.css';

const LIGHT_WORDS = { off: 'No report', connecting: 'Connecting', live: 'Healthy', reconnecting: 'Reconnecting', failed: 'Failed' } as const;

/** Go Live's check: what is not ready, each with its fix (sign in) or Skip; Go Live once nothing is left. */
export function GoLiveCheckDialog() {
  const open = useDestinationsStore((s) => s.goLiveCheckOpen);
  const destinations = useDestinationsStore((s) => s.destinations);
  const problems = goLiveProblems(destinations);
  const anyLeft = destinations.some((d) => d.enabled && d.authenticated);
  return (
    <Modal open={open} onClose={closeGoLiveCheck} title="Before you go live" description="Destinations that cannot receive your stream yet.">
      <div className={styles.dialogBody}>
        {problems.length === 0 ? (
          <p className={styles.dialogText}>Everything is ready.</p>
        ) : (
          <>
            <p className={styles.dialogText}>
              {problems.length === 1
                ? 'This destination is not ready: sign in, or skip it for this broadcast.'
                : 'These destinations are not ready: sign in, or skip them for this broadcast.'}
            </p>
            <ul className={styles.checkList} aria-label="Not ready">
              {problems.map((p) => (
                <li key={p.destinationId} className={styles.checkItem} data-testid="go-live-problem">
                  <span className={styles.checkText}>
                    <strong>{p.name}</strong>
                    <span>{p.kind === 'needs-sign-in' ? `Needs sign-in. ${p.text}` : `Requires authentication. ${p.text}`}</span>
                  </span>
                  <span className={styles.checkActions}>
                    <Button variant="primary" onClick={() => authenticateDestination(p.destinationId)}>
                      Sign in
                    </Button>
                    <Button variant="secondary" onClick={() => void skipDestinationForGoLive(p.destinationId)}>
                      Skip
                    </Button>
                  </span>
                </li>
              ))}
            </ul>
          </>
        )}
        <div className={styles.actions}>
          <Button variant="ghost" onClick={closeGoLiveCheck}>
            Cancel
          </Button>
          <Button variant="primary" disabled={problems.length > 0 || !anyLeft} onClick={() => void requestGoLive()}>
            Go Live
          </Button>
        </div>
      </div>
    </Modal>
  );
}

/** End Broadcast asks once: the viewers lose the stream. */
export function EndBroadcastDialog() {
  const open = useDestinationsStore((s) => s.endConfirmOpen);
  const count = useDestinationsStore((s) => s.destinations.filter((d) => d.enabled).length);
  return (
    <Modal open={open} onClose={keepBroadcasting} title="End the broadcast?" description="Your viewers stop receiving the stream on every destination.">
      <div className={styles.dialogBody}>
        <p className={styles.dialogText}>
          Your stream stops on {count === 1 ? 'your destination' : `all ${count} destinations`}. Viewers see the end of your broadcast.
        </p>
        <div className={styles.actions}>
          <Button variant="secondary" onClick={keepBroadcasting}>
            Keep streaming
          </Button>
          <Button variant="primary" onClick={() => void endBroadcast()}>
            End Broadcast
          </Button>
        </div>
      </div>
    </Modal>
  );
}

/** After End Broadcast: how long it ran, how each destination held up, and the recording. */
export function BroadcastSummaryDialog() {
  const summary = useDestinationsStore((s) => s.summary);
  const projectId = useStudioStore((s) => s.projectId);
  return (
    <Modal open={summary !== null} onClose={closeBroadcastSummary} title="Broadcast ended" description="A summary of the broadcast.">
      {summary && (
        <div className={styles.dialogBody} data-testid="broadcast-summary">
          <p className={styles.dialogText}>
            Duration <strong data-testid="summary-duration">{summary.duration}</strong>
          </p>
          <ul className={styles.checkList} aria-label="Destinations">
            {summary.rows.map((r) => (
              <li key={r.destinationId} className={styles.checkItem} data-testid="summary-destination">
                <span className={styles.checkText}>
                  <strong>{r.name}</strong>
                  <span>
                    {LIGHT_WORDS[r.light]} · {r.reconnects} {r.reconnects === 1 ? 'reconnect' : 'reconnects'}
                    {r.reason && ` · ${r.reason}`}
                  </span>
                </span>
                <span className={styles.light} data-light={r.light} aria-hidden />
              </li>
            ))}
          </ul>
          {summary.recordingId ? (
            projectId && (
              <Link className={styles.recordingsLink} to={`/projects/${projectId}/recordings`} onClick={closeBroadcastSummary}>
                Open the recording
              </Link>
            )
          ) : (
            <p className={styles.dialogText}>This broadcast was not recorded.</p>
          )}
          <div className={styles.actions}>
            <Button variant="primary" onClick={closeBroadcastSummary}>
              Done
            </Button>
          </div>
        </div>
      )}
    </Modal>
  );
}
