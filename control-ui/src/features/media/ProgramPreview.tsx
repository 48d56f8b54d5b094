import { useEffect, useRef } from 'react';
import styles from './ProgramPreview.module.css';

/**
 * The composited program as the worker sends it back: exactly what goes out, played under the
 * editor's layers. `onLive` says whether pictures are arriving, so the canvas can fall back to
 * drawing the layers itself while they are not (not connected yet, a reconnect, a stall).
 */
export function ProgramPreview({ stream, onLive, muted = true }: { stream: MediaStream | null; onLive: (live: boolean) => void; muted?: boolean }) {
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const element = video.current;
    if (!element) return;
    if (element.srcObject !== stream) element.srcObject = stream;
    if (!stream) onLive(false);
    const track = stream?.getVideoTracks()[0];
    const down = () => onLive(false);
    track?.addEventListener('ended', down);
    track?.addEventListener('mute', down);
    return () => {
      track?.removeEventListener('ended', down);
      track?.removeEventListener('mute', down);
    };
  }, [stream, onLive]);
  return (
    <video
      ref={video}
      className={styles.video}
      autoPlay
      muted={muted}
      playsInline
      aria-label="Program preview"
      data-testid="program-preview"
      onPlaying={() => onLive(true)}
      onWaiting={() => onLive(false)}
      onStalled={() => onLive(false)}
      onEmptied={() => onLive(false)}
    />
  );
}
