import { useMemo, type ChangeEvent } from 'react';
import {
  alertAnimations,
  ALERT_SOUND_MAX_SECONDS,
  alertEventTypes,
  ALERT_VARIABLES,
  alertSounds,
  ALERT_DURATION_MAX_MS,
  ALERT_DURATION_MIN_MS,
  type AlertEventType,
} from '@onair/protocol';
import { Button } from '../../components/Button.tsx';
import { Card } from '../../components/Card.tsx';
import { FormField, Input, TextField } from '../../components/FormField.tsx';
import { Modal } from '../../components/Modal.tsx';
import { Select } from '../../components/Select.tsx';
import { Switch } from '../../components/Switch.tsx';
import {
  addAlertsToScene,
  alertSoundValue,
  alertsSourceOf,
  closeAlerts,
  saveAlerts,
  setAlertField,
  setAlertSound,
  testAlert,
  uploadAlertSound,
} from '../../actions/alerts.ts';
import { dismissUpload } from '../../actions/uploads.ts';
import { useAlertsStore, useStudioStore, useUploadsStore } from '../../stores/index.ts';
import { EVENT_KINDS } from './event-kinds.tsx';
import styles from './Alerts.module.css';

const SOUND_LABELS: Record<(typeof alertSounds)[number], string> = { chime: 'Chime', bell: 'Bell', none: 'No sound' };
const SOUND_ACCEPT = 'audio/mpeg,audio/ogg,audio/wav,.mp3,.ogg,.oga,.opus,.wav';

/** The Sound field's choices: the built-in sounds, then the project's uploaded ones by name. */
function useSoundOptions(): { value: string; label: string }[] {
  const uploads = useUploadsStore((s) => s.uploads);
  return useMemo(
    () => [
      ...alertSounds.map((s) => ({ value: s as string, label: SOUND_LABELS[s] })),
      ...uploads.filter((u) => u.purpose === 'alert-sound').map((u) => ({ value: `upload:${u.id}`, label: u.name })),
    ],
    [uploads],
  );
}

/** The creator's own sounds: upload one (MP3, Ogg or WAV), with its progress or the server's refusal. */
function AlertSounds() {
  // Whole lists from the store (a filtered one would be a new array at every read), filtered here.
  const uploads = useUploadsStore((s) => s.uploads);
  const pending = useUploadsStore((s) => s.inProgress);
  const sounds = useMemo(() => uploads.filter((u) => u.purpose === 'alert-sound'), [uploads]);
  const inProgress = useMemo(() => pending.filter((p) => p.purpose === 'alert-sound'), [pending]);
  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    for (const file of Array.from(event.target.files ?? [])) void uploadAlertSound(file);
    event.target.value = '';
  };
  return (
    <Card data-testid="alert-sounds">
      <div className={styles.soundsHead}>
        <p className={styles.text}>
          {sounds.length === 0 ? 'Your own sounds appear in the Sound lists below.' : `Your sounds: ${sounds.map((s) => s.name).join(', ')}`}
        </p>
        <label className={styles.fileButton}>
          Upload a sound…
          <input type="file" accept={SOUND_ACCEPT} onChange={pick} className={styles.fileInput} aria-label="Upload an alert sound" />
        </label>
      </div>
      <p className={styles.hint}>MP3, Ogg or WAV, up to {ALERT_SOUND_MAX_SECONDS} seconds.</p>
      {inProgress.map((item) => (
        <p key={item.key} className={item.state === 'failed' ? styles.error : styles.text} role={item.state === 'failed' ? 'alert' : 'status'}>
          {item.name}: {item.state === 'failed' ? item.error : item.state === 'checking' ? 'checking…' : 'uploading…'}
          {item.state === 'failed' && (
            <Button variant="ghost" onClick={() => dismissUpload(item.key)}>
              Dismiss
            </Button>
          )}
        </p>
      ))}
    </Card>
  );
}
const ANIMATION_LABELS: Record<(typeof alertAnimations)[number], string> = { pop: 'Pop in', slide: 'Slide in', none: 'No animation' };

function AlertRow({ type }: { type: AlertEventType }) {
  const setting = useAlertsStore((s) => s.draft?.[type]);
  const soundOptions = useSoundOptions();
  const unsaved = useAlertsStore((s) => JSON.stringify(s.saved?.[type]) !== JSON.stringify(s.draft?.[type]));
  if (!setting) return null;
  const kind = EVENT_KINDS[type];
  const id = `alert-${type}`;
  return (
    <li className={styles.row} data-testid={`alert-row-${type}`}>
      <div className={styles.rowHead}>
        <span className={styles.icon} style={{ color: kind.color }} aria-hidden>
          {kind.icon(16)}
        </span>
        <span className={styles.name}>{kind.name}</span>
        <Switch label={`${kind.name} alert`} checked={setting.enabled} onCheckedChange={(v) => setAlertField(type, 'enabled', v)} />
        <Button
          variant="ghost"
          onClick={() => void testAlert(type)}
          disabled={unsaved}
          title={unsaved ? 'Save first: the test plays the saved alert' : undefined}
        >
          Test
        </Button>
      </div>
      <div className={styles.fields}>
        <TextField
          id={`${id}-message`}
          label="Message"
          value={setting.message}
          maxLength={200}
          hint={ALERT_VARIABLES[type].map((v) => `{${v}}`).join(' ')}
          onChange={(message) => setAlertField(type, 'message', message)}
        />
        <TextField
          id={`${id}-picture`}
          label="Picture (address, optional)"
          value={setting.imageUrl ?? ''}
          placeholder="https://…"
          onChange={(url) => setAlertField(type, 'imageUrl', url.trim() === '' ? null : url.trim())}
        />
        <div className={styles.inline}>
          <FormField id={`${id}-animation`} label="Animation">
            <Select
              id={`${id}-animation`}
              value={setting.animation}
              options={alertAnimations.map((a) => ({ value: a, label: ANIMATION_LABELS[a] }))}
              onValueChange={(v) => setAlertField(type, 'animation', v as (typeof alertAnimations)[number])}
            />
          </FormField>
          <FormField id={`${id}-sound`} label="Sound">
            <Select id={`${id}-sound`} value={alertSoundValue(setting)} options={soundOptions} onValueChange={(v) => setAlertSound(type, v)} />
          </FormField>
          <FormField id={`${id}-seconds`} label="Seconds">
            <Input
              id={`${id}-seconds`}
              className={styles.seconds}
              type="number"
              min={ALERT_DURATION_MIN_MS / 1000}
              max={ALERT_DURATION_MAX_MS / 1000}
              step={1}
              value={setting.durationMs / 1000}
              onChange={(e) => setAlertField(type, 'durationMs', Math.round(Number(e.target.value) * 1000))}
            />
          </FormField>
        </div>
      </div>
    </li>
  );
}

/**
 * On-screen alerts of the project: per event type whether it plays, its message (with the partner
 * spec's variables), picture or animation, sound and duration; a test button per type; and the
 * browser source that puts the alerts overlay over the program.
 */
export function AlertsDialog() {
  const open = useAlertsStore((s) => s.open);
  const status = useAlertsStore((s) => s.status);
  const error = useAlertsStore((s) => s.error);
  const notice = useAlertsStore((s) => s.notice);
  const saving = useAlertsStore((s) => s.saving);
  const overlayUrl = useAlertsStore((s) => s.overlayUrl);
  const dirty = useAlertsStore((s) => JSON.stringify(s.saved) !== JSON.stringify(s.draft));
  const inScene = useStudioStore((s) => alertsSourceOf(s.document, overlayUrl) !== null);
  return (
    <Modal
      open={open}
      onClose={closeAlerts}
      title="Alerts"
      description="Follows, subs, raids, cheers, tips and donations play in your program as they happen, one after the other."
      size="large"
    >
      <div className={styles.dialog}>
        {status === 'loading' && <p className={styles.text}>Loading…</p>}
        {status === 'ready' && (
          <div className={styles.body}>
            <Card data-testid="alerts-overlay">
              {inScene ? (
                <p className={styles.text}>The alerts are in your scene, over the whole picture.</p>
              ) : (
                <p className={styles.text}>Add the alerts to your scene to show them in the program.</p>
              )}
              {!inScene && (
                <Button variant="primary" onClick={addAlertsToScene}>
                  Add alerts to the scene
                </Button>
              )}
            </Card>
            <AlertSounds />
            <ol className={styles.list}>
              {alertEventTypes.map((type) => (
                <AlertRow key={type} type={type} />
              ))}
            </ol>
          </div>
        )}
        {error && (
          <p className={styles.error} role="alert">
            {error}
          </p>
        )}
        {notice && !error && (
          <p className={styles.notice} role="status">
            {notice}
          </p>
        )}
        <div className={styles.actions}>
          <Button variant="primary" onClick={() => void saveAlerts()} disabled={!dirty || saving || status !== 'ready'}>
            {saving ? 'Saving…' : 'Save alerts'}
          </Button>
        </div>
      </div>
    </Modal>
  );
}
