import { CameraOff } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { resolveMicrophoneId, resolveWebcamId } from '@onair/protocol';
import { chooseCamera, chooseMicrophone, mirrorCamera, setCameraDisplayName, startCameraPreview } from '../../actions/devices.ts';
import { closePanel } from '../../actions/studio.ts';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Modal } from '../../components/Modal.tsx';
import { Select } from '../../components/Select.tsx';
import { Switch } from '../../components/Switch.tsx';
import { useDeviceStore, useStudioStore } from '../../stores/index.ts';
import styles from './CameraSettingsDialog.module.css';
import { CameraVideo } from '../media/LayerContent.tsx';
import form from './SettingsForm.module.css';
import { Input } from '../../components/FormField.tsx';

/** One live preview tile of the camera grid; choosing it puts that camera on the source. */
function CameraTile({
  deviceId,
  label,
  chosen,
  mirrored,
  onChoose,
}: {
  deviceId: string;
  label: string;
  chosen: boolean;
  mirrored: boolean;
  onChoose: () => void;
}) {
  const stream = useDeviceStore((s) => s.previews[deviceId]);
  useEffect(() => {
    void startCameraPreview(deviceId);
  }, [deviceId]);
  return (
    <button type="button" className={`${styles.tile} ${chosen ? styles.chosen : ''}`} aria-pressed={chosen} aria-label={label} onClick={onChoose}>
      {stream ? <CameraVideo stream={stream} mirrored={mirrored} label={`${label} preview`} /> : <span className={styles.offline}>Camera Offline</span>}
      <span className={styles.tileLabel}>{label}</span>
    </button>
  );
}

/** Spec §2 Camera Settings: microphone, 'Mirror Camera', the grid of live cameras and a display name. */
export function CameraSettingsDialog({ sourceId }: { sourceId: string }) {
  const source = useStudioStore((s) => s.document?.sources.find((x) => x.id === sourceId));
  const cameras = useDeviceStore((s) => s.cameras);
  const microphones = useDeviceStore((s) => s.microphones);
  const allMicrophones = useDeviceStore((s) => s.allMicrophones);
  const micId = useId();
  const nameId = useId();
  const [name, setName] = useState(source?.kind === 'webcam' ? source.settings.displayName : '');
  if (!source || source.kind !== 'webcam') return null;
  // Spec §4: 'default' resolves to the first webcam / the default microphone; unknown ids to none.
  const chosenCamera = resolveWebcamId(source.settings.webcamDeviceId, cameras);
  const chosenMic = resolveMicrophoneId(source.settings.microphoneDeviceId, allMicrophones);

  return (
    <Modal open onClose={closePanel} title="Camera Settings" description="Configure your camera settings" size="large">
      <p className={styles.lead}>Configure your camera settings</p>
      <div className={form.form}>
        <label htmlFor={micId} className={form.label}>
          Microphone
        </label>
        <Select
          id={micId}
          value={chosenMic ?? ''}
          options={[{ value: '', label: 'No microphone' }, ...microphones.map((m) => ({ value: m.deviceId, label: m.label || 'Microphone' }))]}
          onValueChange={(value) => chooseMicrophone(source.id, value || null)}
        />
        <Switch label="Mirror Camera" checked={source.settings.mirrorCamera} onCheckedChange={(on) => mirrorCamera(source.id, on)} />
        {cameras.length === 0 ? (
          <EmptyState icon={<CameraOff size={28} />} title="No cameras found">
            <p>Please check your camera settings and try again.</p>
          </EmptyState>
        ) : (
          <div className={styles.grid} role="group" aria-label="Cameras">
            {cameras.map((camera, index) => (
              <CameraTile
                key={camera.deviceId}
                deviceId={camera.deviceId}
                label={camera.label || `Camera ${index + 1}`}
                chosen={camera.deviceId === chosenCamera}
                mirrored={source.settings.mirrorCamera}
                onChoose={() => chooseCamera(source.id, camera.deviceId)}
              />
            ))}
          </div>
        )}
        <label htmlFor={nameId} className={form.label}>
          Display name (optional)
        </label>
        <div className={form.row}>
          <Input id={nameId} maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
          <Button onClick={() => setCameraDisplayName(source.id, name.trim())} disabled={name.trim() === source.settings.displayName}>
            Save name
          </Button>
        </div>
      </div>
    </Modal>
  );
}
