import { CalendarClock, Film, Trash2, X } from 'lucide-react';
import { useEffect, useId, useState, type ChangeEvent } from 'react';
import { builtInScreens, uploadContentPath, type BuiltInScreen, type Upload, type UploadPurpose } from '@onair/protocol';
import { addCountdownScene, addScreen, addUploadToScene } from '../../actions/scene-edits.ts';
import { scheduleVideo } from '../../actions/schedules.ts';
import { deleteUpload, dismissUpload, loadUploads, uploadFile } from '../../actions/uploads.ts';
import { Button } from '../../components/Button.tsx';
import { IconButton } from '../../components/IconButton.tsx';
import { Modal } from '../../components/Modal.tsx';
import { Select } from '../../components/Select.tsx';
import { useUploadsStore, type UploadInProgress } from '../../stores/index.ts';
import styles from './MediaLibraryDialog.module.css';
import { ScheduledBroadcasts } from './ScheduledBroadcasts.tsx';
import { Input } from '../../components/FormField.tsx';

const PURPOSES: { value: UploadPurpose; label: string }[] = [
  { value: 'background', label: 'Background (image or video)' },
  { value: 'logo', label: 'Logo (image)' },
  { value: 'video', label: 'Video with sound' },
  { value: 'screen', label: 'Starting / Be right back / Ending screen' },
];
const SCREEN_LABELS: Record<BuiltInScreen, string> = { starting: 'Starting soon', brb: 'Be right back', ending: 'Ending' };
const ACCEPT = 'image/png,image/jpeg,image/webp,image/gif,video/mp4,video/webm';

export function formatSize(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function ProgressRow({ item }: { item: UploadInProgress }) {
  const percent = item.totalBytes > 0 ? Math.round((item.sentBytes / item.totalBytes) * 100) : 0;
  return (
    <li className={styles.progressRow} aria-label={`Uploading ${item.name}`}>
      <div className={styles.progressText}>
        <span className={styles.name}>{item.name}</span>
        <span className={item.state === 'failed' ? styles.error : styles.meta} role={item.state === 'failed' ? 'alert' : undefined}>
          {item.state === 'failed' ? item.error : item.state === 'checking' ? 'Checking the file…' : `${percent} %`}
        </span>
      </div>
      {item.state !== 'failed' && <progress className={styles.progress} max={100} value={percent} aria-label={`${item.name} upload progress`} />}
      {item.state === 'failed' && <IconButton label={`Dismiss ${item.name}`} icon={<X size={14} />} onClick={() => dismissUpload(item.key)} />}
    </li>
  );
}

function UploadRow({ upload, projectId, onAdded }: { upload: Upload; projectId: string; onAdded: () => void }) {
  const [screenKind, setScreenKind] = useState<BuiltInScreen>('brb');
  const [scheduling, setScheduling] = useState(false);
  const [when, setWhen] = useState('');
  return (
    <li className={styles.uploadRow}>
      <div className={styles.thumb}>
        {upload.kind === 'image' ? <img src={uploadContentPath(projectId, upload.id)} alt="" /> : <Film size={22} aria-hidden />}
      </div>
      <div className={styles.details}>
        <span className={styles.name}>{upload.name}</span>
        <span className={styles.meta}>
          {PURPOSES.find((p) => p.value === upload.purpose)?.label.split(' (')[0]} · {upload.width}×{upload.height} · {formatSize(upload.sizeBytes)}
          {upload.durationSeconds !== null && ` · ${formatDuration(upload.durationSeconds)}`}
        </span>
      </div>
      {upload.purpose === 'screen' && upload.kind === 'image' && (
        <Select
          value={screenKind}
          options={builtInScreens.map((s) => ({ value: s, label: SCREEN_LABELS[s] }))}
          onValueChange={(v) => setScreenKind(builtInScreens.find((s) => s === v) ?? 'brb')}
          aria-label={`Use ${upload.name} as`}
        />
      )}
      <Button
        variant="secondary"
        onClick={() => {
          if (addUploadToScene(upload, screenKind)) onAdded();
        }}
      >
        {upload.purpose === 'screen' && upload.kind === 'image' ? 'Add as screen' : 'Add to scene'}
      </Button>
      {upload.kind === 'video' && (
        <IconButton label={`Schedule ${upload.name} as live`} icon={<CalendarClock size={14} />} onClick={() => setScheduling((s) => !s)} />
      )}
      <IconButton label={`Delete ${upload.name}`} icon={<Trash2 size={14} />} onClick={() => void deleteUpload(projectId, upload.id)} />
      {scheduling && (
        <form
          className={styles.schedule}
          onSubmit={(e) => {
            e.preventDefault();
            void scheduleVideo(projectId, upload.id, upload.name, when).then((done) => done && setScheduling(false));
          }}
        >
          <label className={styles.meta}>
            Stream as live at
            <Input
              className={styles.when}
              type="datetime-local"
              required
              value={when}
              onChange={(e) => setWhen(e.target.value)}
              aria-label={`Stream ${upload.name} as live at`}
            />
          </label>
          <Button type="submit" variant="primary" disabled={when === ''}>
            Schedule
          </Button>
        </form>
      )}
    </li>
  );
}

/**
 * The project's media: upload images and videos (with progress, refusals in the server's words),
 * place them in the active scene, schedule a video to stream as live (and see or cancel what is
 * scheduled), and add the built-in Starting Soon, Be Right Back and Ending screens.
 */
export function MediaLibraryDialog({ open, projectId, onClose }: { open: boolean; projectId: string; onClose: () => void }) {
  const purposeId = useId();
  const fileId = useId();
  const [purpose, setPurpose] = useState<UploadPurpose>('background');
  const all = useUploadsStore();
  const { usage, status } = all;
  // Alert sounds live in the Alerts dialog, not among the scenes' media.
  const uploads = all.uploads.filter((u) => u.purpose !== 'alert-sound');
  const inProgress = all.inProgress.filter((p) => p.purpose !== 'alert-sound');
  useEffect(() => {
    if (open) void loadUploads(projectId);
  }, [open, projectId]);

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    for (const file of Array.from(event.target.files ?? [])) void uploadFile(projectId, file, purpose);
    event.target.value = '';
  };

  return (
    <Modal open={open} onClose={onClose} title="Media" description="Upload images and videos for your scenes, and add screens." size="large">
      <div className={styles.body}>
        <section className={styles.section} aria-labelledby={`${fileId}-heading`}>
          <h3 id={`${fileId}-heading`} className={styles.heading}>
            Upload
          </h3>
          <div className={styles.uploadControls}>
            <label htmlFor={purposeId} className={styles.label}>
              Use as
            </label>
            <Select
              id={purposeId}
              value={purpose}
              options={PURPOSES}
              onValueChange={(v) => setPurpose(PURPOSES.find((p) => p.value === v)?.value ?? 'background')}
            />
            <label className={styles.fileButton}>
              Choose files…
              <input id={fileId} type="file" accept={ACCEPT} multiple onChange={pick} className={styles.fileInput} aria-label="Choose files to upload" />
            </label>
          </div>
          <p className={styles.hint}>
            PNG, JPEG, WebP or GIF images; MP4 (H.264 + AAC) or WebM videos.
            {usage && ` ${formatSize(usage.usedBytes)} of ${formatSize(usage.quotaBytes)} used.`}
          </p>
          {inProgress.length > 0 && (
            <ul className={styles.list} aria-label="Uploads in progress">
              {inProgress.map((item) => (
                <ProgressRow key={item.key} item={item} />
              ))}
            </ul>
          )}
        </section>
        <section className={styles.section} aria-labelledby={`${fileId}-library`}>
          <h3 id={`${fileId}-library`} className={styles.heading}>
            Your files
          </h3>
          {uploads.length === 0 ? (
            <p className={styles.hint}>{status === 'loading' ? 'Loading…' : 'No files yet. Upload an image or a video above.'}</p>
          ) : (
            <ul className={styles.list} aria-label="Your files">
              {uploads.map((upload) => (
                <UploadRow key={upload.id} upload={upload} projectId={projectId} onAdded={onClose} />
              ))}
            </ul>
          )}
        </section>
        <ScheduledBroadcasts projectId={projectId} open={open} uploads={uploads} headingId={`${fileId}-scheduled`} />
        <section className={styles.section} aria-labelledby={`${fileId}-screens`}>
          <h3 id={`${fileId}-screens`} className={styles.heading}>
            Screens
          </h3>
          <p className={styles.hint}>
            Ready-made screens to open, pause and close your show. Each is a scene of its own. A countdown goes back to the scene you are on when its time is
            up.
          </p>
          <div className={styles.screens}>
            {builtInScreens.map((screen) => (
              <Button
                key={screen}
                variant="secondary"
                onClick={() => {
                  if (addScreen({ screen })) onClose();
                }}
              >
                {SCREEN_LABELS[screen]}
              </Button>
            ))}
            <Button
              variant="secondary"
              onClick={() => {
                if (addCountdownScene()) onClose();
              }}
            >
              Countdown
            </Button>
          </div>
        </section>
      </div>
    </Modal>
  );
}
