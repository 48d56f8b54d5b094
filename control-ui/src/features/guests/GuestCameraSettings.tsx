import { CameraOff } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { GUEST_NAME_MAX, guestNameProblem } from '@onair/protocol';
import { setMirrored } from '../../actions/app.ts';
import { startCameraPreview } from '../../actions/devices.ts';
import { joinStudioAsGuest } from '../../actions/guest-page.ts';
import { selectCameraDevice, selectMicrophoneDevice } from '../../actions/media.ts';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Select } from '../../components/Select.tsx';
import { Switch } from '../../components/Switch.tsx';
import { useAppStore, useDeviceStore, useMediaStore } from '../../stores/index.ts';
import { CameraVideo } from '../media/LayerContent.tsx';
import styles from './GuestPage.module.css';
import { Input } from '../../components/FormField.tsx';

/** One live camera of the grid; choosing it is the camera the guest joins with. */
function CameraChoice({ deviceId, label, chosen, mirrored }: { deviceId: string; label: string; chosen: boolean; mirrored: boolean }) {
  const stream = useDeviceStore((s) => s.previews[deviceId]);
  useEffect(() => {
    void startCameraPreview(deviceId);
  }, [deviceId]);
  return (
    <button
      type="button"
      className={`${styles.camera} ${chosen ? styles.chosen : ''}`}
      aria-pressed={chosen}
      aria-label={label}
      onClick={() => void selectCameraDevice(deviceId)}
    >
      {stream ? <CameraVideo stream={stream} mirrored={mirrored} label={`${label} preview`} /> : <span className={styles.offline}>Camera Offline</span>}
      <span className={styles.cameraLabel}>{label}</span>
    </button>
  );
}

/**
 * Spec §2 Camera Settings panel on the guest page: a microphone picker, 'Mirror Camera', a grid of
 * live camera previews, an optional display name; 'No cameras found' with its help text. Join is
 * offered once the name (if any) can be used.
 */
export function GuestCameraSettings({ projectName, joining }: { projectName: string; joining: boolean }) {
  const cameras = useDeviceStore((s) => s.cameras);
  const microphones = useDeviceStore((s) => s.microphones);
  const selectedCamera = useMediaStore((s) => s.selectedCamera);
  const selectedMicrophone = useMediaStore((s) => s.selectedMicrophone);
  const mirrored = useAppStore((s) => s.isMirrored);
  const [name, setName] = useState('');
  const micId = useId();
  const nameId = useId();
  const problem = guestNameProblem(name);
  const chosenCamera = selectedCamera ?? cameras[0]?.deviceId ?? null;
  return (
    <section className={styles.settings} aria-labelledby={`${nameId}-title`}>
      <header>
        <p className={styles.kicker}>You are invited to {projectName}</p>
        <h1 id={`${nameId}-title`} className={styles.title}>
          Camera Settings
        </h1>
        <p className={styles.lead}>Configure your camera settings</p>
      </header>
      <label htmlFor={micId} className={styles.label}>
        Microphone
      </label>
      <Select
        id={micId}
        value={selectedMicrophone}
        options={microphones.map((m, i) => ({ value: m.deviceId, label: m.label || `Microphone ${i + 1}` }))}
        onValueChange={(deviceId) => void selectMicrophoneDevice(deviceId)}
        placeholder={microphones.length === 0 ? 'No microphone found' : 'Default microphone'}
      />
      <Switch label="Mirror Camera" checked={mirrored} onCheckedChange={setMirrored} />
      {cameras.length === 0 ? (
        <EmptyState icon={<CameraOff size={28} />} title="No cameras found">
          <p>Please check your camera settings and try again.</p>
        </EmptyState>
      ) : (
        <div className={styles.cameras} role="group" aria-label="Cameras">
          {cameras.map((camera, index) => (
            <CameraChoice
              key={camera.deviceId}
              deviceId={camera.deviceId}
              label={camera.label || `Camera ${index + 1}`}
              chosen={camera.deviceId === chosenCamera}
              mirrored={mirrored}
            />
          ))}
        </div>
      )}
      <label htmlFor={nameId} className={styles.label}>
        Display name (optional)
      </label>
      <Input
        id={nameId}
        className={styles.input}
        data-invalid={problem !== null}
        aria-invalid={problem !== null}
        aria-describedby={problem ? `${nameId}-problem` : undefined}
        value={name}
        placeholder="How the host and other guests see you"
        autoComplete="name"
        onChange={(e) => setName(e.target.value)}
      />
      {problem ? (
        <p id={`${nameId}-problem`} className={styles.problem} role="alert">
          {problem}
        </p>
      ) : (
        <p className={styles.hint}>{`${name.trim().length}/${GUEST_NAME_MAX}`}</p>
      )}
      <Button variant="primary" className={styles.join} disabled={problem !== null || joining} onClick={() => void joinStudioAsGuest(name.trim())}>
        {joining ? 'Joining…' : 'Join Studio'}
      </Button>
    </section>
  );
}
