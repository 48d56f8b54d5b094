import { Download, Film, Trash2 } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { recordingPartPath, type Recording } from '@onair/protocol';
import { deleteRecording, loadRecordings } from '../../actions/recordings.ts';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { useRecordingsStore } from '../../stores/index.ts';
import page from '../../styles/Page.module.css';
import styles from './RecordingsPage.module.css';

/** Recordings of a project (issue 19): duration, size, when it is deleted, and a download per part. */
export function RecordingsPage() {
  const { projectId = '' } = useParams();
  const { status, recordings, error } = useRecordingsStore();
  useDocumentTitle('Recordings');
  useEffect(() => {
    void loadRecordings(projectId);
  }, [projectId]);

  return (
    <div className={page.page}>
      <header className={page.header}>
        <div>
          <h1 className={page.title}>Recordings</h1>
          <p className={page.subtitle}>Broadcasts you went live with Record switched on. Each is kept for the days your plan allows.</p>
        </div>
        <Link className={styles.back} to={`/studio/${projectId}`}>
          Back to the studio
        </Link>
      </header>
      <section className={page.card} aria-label="Recordings">
        {status === 'ready' && recordings.length > 0 ? (
          <ul className={styles.list}>
            {recordings.map((r) => (
              <RecordingRow key={r.id} recording={r} />
            ))}
          </ul>
        ) : (
          <EmptyState
            icon={<Film size={36} />}
            title={status === 'failed' ? 'Recordings could not be loaded' : status === 'ready' ? 'No recordings yet' : 'Loading recordings…'}
          >
            <p>
              {status === 'failed' ? error : status === 'ready' ? 'Switch on Record beside Go Live in the studio, and your next broadcast is kept here.' : null}
            </p>
          </EmptyState>
        )}
      </section>
    </div>
  );
}

function RecordingRow({ recording: r }: { recording: Recording }) {
  const recording = r.state === 'recording';
  return (
    <li className={styles.row}>
      <div className={styles.what}>
        <span className={styles.when}>{formatDate(r.startedAt)}</span>
        <span className={styles.meta}>
          {recording ? (
            <span className={styles.rec}>Recording now</span>
          ) : (
            <span>{r.durationSeconds === null ? 'Finishing…' : formatDuration(r.durationSeconds)}</span>
          )}
          <span>{formatBytes(r.sizeBytes)}</span>
          {r.expiresAt && <span>{deletionWords(r.expiresAt, Date.now())}</span>}
        </span>
      </div>
      <div className={styles.actions}>
        {r.parts.map((p) => (
          <a key={p.number} className={styles.download} href={recordingPartPath(r.projectId, r.id, p.number)} download aria-disabled={recording}>
            <Download size={16} aria-hidden />
            {r.parts.length > 1 ? `Part ${p.number}` : 'Download'}
          </a>
        ))}
        {r.parts.length === 0 && !recording && <span className={styles.meta}>Nothing was recorded</span>}
        <Button
          variant="secondary"
          disabled={recording}
          onClick={() => void deleteRecording(r.projectId, r.id)}
          aria-label={`Delete the recording of ${formatDate(r.startedAt)}`}
        >
          <Trash2 size={16} aria-hidden />
        </Button>
      </div>
    </li>
  );
}

export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(2)} GB`;
}

/**
 * The retention job deletes a recording after expiresAt: a date to come reads 'Kept until …'
 * (issue 52: 'Deleted Jan 6, 2027' read as done); one passed, still listed, is about to go.
 */
export function deletionWords(expiresAt: string, now: number): string {
  return new Date(expiresAt).getTime() > now ? `Kept until ${formatDate(expiresAt)}` : 'Being deleted (its time is up)';
}

function formatDate(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
