import { Camera, CameraOff, Mic, MicOff } from 'lucide-react';
import { toggleCamera, toggleMicrophone } from '../../actions/media.ts';
import { IconButton } from '../../components/IconButton.tsx';
import { useDeviceStore, useMediaStore } from '../../stores/index.ts';

/**
 * Camera and microphone on/off for the host's own primary tracks (spec §4 "Sources"): disabled
 * without a connection (or, for the microphone, without a track), shown off when the track is
 * absent or muted. When this browser has no camera (or no microphone) at all, its button is off
 * and its tooltip says so.
 */
export function OwnMediaButtons() {
  const camera = useMediaStore((s) => s.camera);
  const cameraOn = useMediaStore((s) => s.cameraOn);
  const microphone = useMediaStore((s) => s.microphone);
  const microphoneOn = useMediaStore((s) => s.microphoneOn);
  const joined = useMediaStore((s) => s.room === 'joined');
  const noCamera = useDeviceStore((s) => s.listed && s.cameras.length === 0);
  const noMicrophone = useDeviceStore((s) => s.listed && s.microphones.length === 0);
  const cameraShownOn = cameraOn && camera !== null;
  const micShownOn = microphoneOn && microphone !== null;
  return (
    <>
      <IconButton
        label={cameraShownOn ? 'Turn camera off' : 'Turn camera on'}
        icon={cameraShownOn ? <Camera size={16} /> : <CameraOff size={16} />}
        aria-pressed={cameraShownOn}
        disabled={!joined}
        {...(noCamera ? { disabledReason: 'No camera found. Connect a camera, then reload the studio.' } : {})}
        onClick={() => void toggleCamera()}
      />
      <IconButton
        label={micShownOn ? 'Mute microphone' : 'Unmute microphone'}
        icon={micShownOn ? <Mic size={16} /> : <MicOff size={16} />}
        aria-pressed={micShownOn}
        disabled={!joined || microphone === null}
        {...(noMicrophone ? { disabledReason: 'No microphone found. Connect a microphone, then reload the studio.' } : {})}
        onClick={toggleMicrophone}
      />
    </>
  );
}
