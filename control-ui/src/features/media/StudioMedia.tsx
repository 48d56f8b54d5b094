import { MonitorUp, MonitorX } from 'lucide-react';
import type { ChangeEvent } from 'react';
import { selectCameraDevice, selectMicrophoneDevice, setAudioMode, shareScreen, stopScreenShare } from '../../actions/media.ts';
import { IconButton } from '../../components/IconButton.tsx';
import { Switch } from '../../components/Switch.tsx';
import { DevicePermissionStatus, mediaErrorText } from '../../model/media.ts';
import { useDeviceStore, useMediaStore } from '../../stores/index.ts';
import { OwnMediaButtons } from './OwnMediaButtons.tsx';
import styles from './StudioMedia.module.css';

const connectionLabel = { idle: 'Not connected', connecting: 'Connecting…', connected: 'Connected', reconnecting: 'Reconnecting…', closed: 'Disconnected' } as const;

const statusText: Record<DevicePermissionStatus, string | null> = {
  [DevicePermissionStatus.Unknown]: null,
  [DevicePermissionStatus.Ok]: null,
  [DevicePermissionStatus.SelectedUnavailable]: 'The selected device is unavailable.',
  [DevicePermissionStatus.AllUnavailable]: 'No device is available.',
};

/**
 * The host's own media in the studio: the connection to the session (the program preview it
 * brings plays in the editor canvas), camera and microphone on/off for the primary tracks, device
 * choice with its status, and the microphone mode (music or speech).
 */
export function StudioMedia() {
  const media = useMediaStore();
  const cameras = useDeviceStore((s) => s.cameras);
  const microphones = useDeviceStore((s) => s.microphones);
  const joined = media.room === 'joined';

  return (
    <section className={styles.media} aria-label="Your camera and microphone">
      <div className={styles.row}>
        <span className={styles.connection} data-state={media.connection} role="status" data-testid="media-connection">
          {media.room === 'refused' ? 'Not allowed to join' : connectionLabel[media.connection]}
        </span>
        <OwnMediaButtons />
        <IconButton
          label={media.screen ? 'Stop sharing your screen' : 'Share your screen'}
          icon={media.screen ? <MonitorX size={16} /> : <MonitorUp size={16} />}
          aria-pressed={media.screen !== null}
          disabled={!joined}
          onClick={() => void (media.screen ? stopScreenShare() : shareScreen())}
        />
      </div>
      {media.roomError && <p className={styles.error}>{media.roomError}</p>}
      {media.permissionError && <p className={styles.error}>{mediaErrorText[media.permissionError]}</p>}
      <label className={styles.field}>
        <span>Camera</span>
        <select value={media.selectedCamera ?? ''} onChange={(e: ChangeEvent<HTMLSelectElement>) => void selectCameraDevice(e.target.value)} disabled={cameras.length === 0}>
          {media.selectedCamera === null && <option value="">Default camera</option>}
          {cameras.map((d) => (
            <option key={d.deviceId} value={d.deviceId}>
              {d.label || 'Camera'}
            </option>
          ))}
        </select>
      </label>
      {statusText[media.cameraStatus] && <p className={styles.hint} data-status={media.cameraStatus}>{statusText[media.cameraStatus]}</p>}
      <label className={styles.field}>
        <span>Microphone</span>
        <select value={media.selectedMicrophone ?? ''} onChange={(e: ChangeEvent<HTMLSelectElement>) => void selectMicrophoneDevice(e.target.value)} disabled={microphones.length === 0}>
          {media.selectedMicrophone === null && <option value="">Default microphone</option>}
          {microphones.map((d) => (
            <option key={d.deviceId} value={d.deviceId}>
              {d.label || 'Microphone'}
            </option>
          ))}
        </select>
      </label>
      {statusText[media.microphoneStatus] && <p className={styles.hint} data-status={media.microphoneStatus}>{statusText[media.microphoneStatus]}</p>}
      <Switch label="Optimize for music" checked={media.audioMode === 'music'} onCheckedChange={(on) => void setAudioMode(on ? 'music' : 'speech')} />
    </section>
  );
}
