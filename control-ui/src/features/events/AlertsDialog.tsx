import {
  alertAnimations,
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
import { addAlertsToScene, alertsSourceOf, closeAlerts, saveAlerts, setAlertField, testAlert } from '../../actions/alerts.ts';
import { useAlertsStore, useStudioStore } from '../../stores/index.ts';
import { EVENT_KINDS } from './event-kinds.tsx';
import styles from './Alerts.module.css';

const SOUND_LABELS: Record<(typeof alertSounds)[number], string> = { chime: 'Chime', bell: 'Bell', none: 'No sound' };
const ANIMATION_LABELS: Record<(typeof alertAnimations)[number], string> = { pop: 'Pop in', slide: 'Slide in', none: 'No animation' };

function AlertRow({ type }: { type: AlertEventType }) {
  const setting = useAlertsStore((s) => s.draft?.[type]);
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
            <Select
              id={`${id}-sound`}
              value={setting.sound}
              options={alertSounds.map((s) => ({ value: s, label: SOUND_LABELS[s] }))}
              onValueChange={(v) => setAlertField(type, 'sound', v as (typeof alertSounds)[number])}
            />
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
