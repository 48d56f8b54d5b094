import { useEffect, useRef } from 'react';
import styles from './StudioMedia.module.css';

/** The composited program as the worker sends it back: exactly what goes out. */
export function ProgramPreview({ stream }: { stream: MediaStream | null }) {
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (video.current && video.current.srcObject !== stream) video.current.srcObject = stream;
  }, [stream]);
  return (
    <div className={styles.preview}>
      <video ref={video} className={styles.video} autoPlay muted playsInline aria-label="Program preview" data-testid="program-preview" />
      {!stream && <span className={styles.waiting}>The program appears here once connected.</span>}
    </div>
  );
}
