import { Download, FileArchive } from 'lucide-react';
import { useEffect } from 'react';
import type { DataExport } from '@onair/protocol';
import { openDataExports, refreshDataExports, requestDataExport } from '../../actions/partner-exports.ts';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { usePartnerSettingsStore } from '../../stores/index.ts';
import styles from '../partner-home/Partner.module.css';

/** How often the list is read again while an export is being built. */
const PROGRESS_POLL_MS = 1000;
const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const size = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

function ExportRow({ item }: { item: DataExport }) {
  const building = item.state === 'queued' || item.state === 'running';
  return (
    <li className={styles.item} aria-label={`Export of ${when(item.createdAt)}`}>
      <div className={styles.itemMain}>
        <span className={styles.itemTitle}>Export of {when(item.createdAt)}</span>
        {building && (
          <span className={styles.muted}>
            Preparing… <progress max={100} value={item.progress} aria-label="Export progress" /> {item.progress}%
          </span>
        )}
        {item.state === 'failed' && <span className={styles.formError}>This export failed. Ask for a new one.</span>}
        {item.state === 'ready' && !item.expired && item.expiresAt && (
          <span className={styles.muted}>
            Ready{item.sizeBytes ? ` · ${size(item.sizeBytes)}` : ''} · the link works until {when(item.expiresAt)}
          </span>
        )}
        {item.expired && <span className={styles.muted}>The download link has expired.</span>}
      </div>
      {item.downloadUrl && (
        <a className={styles.navLink} href={item.downloadUrl} download>
          <Download size={16} aria-hidden />
          Download
        </a>
      )}
    </li>
  );
}

/** Settings › Data Exports: an archive (JSON and CSV) of everything the account holds. */
export function DataExportsSection() {
  const state = usePartnerSettingsStore((s) => s.exports);
  const failed = usePartnerSettingsStore((s) => s.exportsFailed);
  useEffect(() => {
    void openDataExports();
  }, []);
  const building = state?.exports.some((e) => e.state === 'queued' || e.state === 'running') ?? false;
  useEffect(() => {
    if (!building) return;
    const timer = setTimeout(() => void refreshDataExports(), PROGRESS_POLL_MS);
    return () => clearTimeout(timer);
  }, [building, state]);

  if (failed) return <EmptyState title="Failed to load your exports">Reload the page to try again.</EmptyState>;
  if (!state) return null;
  return (
    <div className={styles.stack}>
      <p className={styles.muted}>
        An archive of all your data as JSON and CSV files. We e-mail you when it is ready; the download link works for {state.linkHours} hours. One export at a
        time.
      </p>
      <div>
        <Button variant="primary" disabled={building} onClick={() => void requestDataExport()}>
          <FileArchive size={16} aria-hidden />
          Export my data
        </Button>
      </div>
      {state.exports.length === 0 ? (
        <EmptyState title="No exports yet">Your exports appear here.</EmptyState>
      ) : (
        <ul className={styles.list} aria-label="Data exports">
          {state.exports.map((item) => (
            <ExportRow key={item.id} item={item} />
          ))}
        </ul>
      )}
    </div>
  );
}
