import { MonitorUp, MonitorX } from 'lucide-react';
import { useId } from 'react';
import type { DeviceLike } from '@onair/protocol';
import { selectCameraDevice, selectMicrophoneDevice, setAudioMode, shareScreen, stopScreenShare } from '../../actions/media.ts';
import { Disclosure } from '../../components/Disclosure.tsx';
import { IconButton } from '../../components/IconButton.tsx';
import { Select } from '../../components/Select.tsx';
import { Switch } from '../../components/Switch.tsx';
import { DevicePermissionStatus, mediaErrorText, WAITING_FOR_WORKER } from '../../model/media.ts';
import { useDeviceStore, useMediaStore } from '../../stores/index.ts';
import { OwnMediaButtons } from './OwnMediaButtons.tsx';
import styles from './StudioMedia.module.css';

const connectionLabel = {
  idle: 'Not connected',
  connecting: 'Connecting…',
  connected: 'Connected',
  reconnecting: 'Reconnecting…',
  closed: 'Disconnected',
} as const;

const statusText: Record<DevicePermissionStatus, string | null> = {
  [DevicePermissionStatus.Unknown]: null,
  [DevicePermissionStatus.Ok]: null,
  [DevicePermissionStatus.SelectedUnavailable]: 'The selected device is unavailable.',
  [DevicePermissionStatus.AllUnavailable]: 'No device is available.',
};

/**
 * The host's own media in the studio: the connection to the session (the program preview it
 * brings plays in the editor canvas), camera and microphone on/off for the primary tracks, device
 * choice with its status, and the microphone mode (music or speech), the last two folded away.
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
          {media.room === 'refused'
            ? 'Not allowed to join'
            : media.waitingForWorkerSince !== null
              ? 'Waiting for a media worker…'
              : connectionLabel[media.connection]}
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
      {media.waitingForWorkerSince !== null && <p className={styles.hint}>{WAITING_FOR_WORKER}</p>}
      {media.permissionError && <p className={styles.error}>{mediaErrorText[media.permissionError]}</p>}
      {/* A device problem is said whether or not the choices are open. */}
      {(['Camera', 'Microphone'] as const).map((label) => {
        const status = label === 'Camera' ? media.cameraStatus : media.microphoneStatus;
        return statusText[status] ? (
          <p key={label} className={styles.hint} data-status={status}>
            {label}: {statusText[status]}
          </p>
        ) : null;
      })}
      {/* The device choices are set once and rarely changed: folded away, so the column keeps its room for Go Live, destinations and chat. */}
      <Disclosure label="Devices and sound">
        <DeviceField label="Camera" devices={cameras} selected={media.selectedCamera} onSelect={selectCameraDevice} />
        <DeviceField label="Microphone" devices={microphones} selected={media.selectedMicrophone} onSelect={selectMicrophoneDevice} />
        <Switch label="Optimize for music" checked={media.audioMode === 'music'} onCheckedChange={(on) => void setAudioMode(on ? 'music' : 'speech')} />
      </Disclosure>
    </section>
  );
}

/** One device choice (spec §4): the devices this browser lists. */
function DeviceField(props: {
  label: 'Camera' | 'Microphone';
  devices: readonly DeviceLike[];
  selected: string | null;
  onSelect: (deviceId: string) => Promise<void>;
}) {
  const { label, devices, selected } = props;
  const id = useId();
  const noun = label.toLowerCase();
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <Select
        id={id}
        value={selected}
        options={devices.map((d) => ({ value: d.deviceId, label: d.label || label }))}
        onValueChange={(deviceId) => void props.onSelect(deviceId)}
        placeholder={devices.length === 0 ? `No ${noun} found` : `Default ${noun}`}
      />
    </div>
  );
}
