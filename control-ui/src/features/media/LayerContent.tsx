import { useEffect, useRef, useState } from 'react';
import { resolveWebcamId, uploadContentPath, type Source } from '@onair/protocol';
import { startCameraPreview } from '../../actions/devices.ts';
import { useDeviceStore, useIngestStore, useMediaStore, useStudioStore, type SourceRenderStatus } from '../../stores/index.ts';
import { SourcePlaceholder } from './SourcePlaceholder.tsx';
import styles from './LayerContent.module.css';

const SCREEN_TITLES = { starting: 'Starting soon', brb: 'Be right back', ending: 'Thanks for watching' } as const;

/** A live local camera: the host's own camera sources show it here before the worker's program does. */
export function CameraVideo({ stream, mirrored, label }: { stream: MediaStream; mirrored: boolean; label: string }) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (ref.current && ref.current.srcObject !== stream) ref.current.srcObject = stream;
  }, [stream]);
  return <video ref={ref} className={`${styles.video} ${mirrored ? styles.mirrored : ''}`} autoPlay muted playsInline aria-label={label} />;
}

function WebcamContent({ source }: { source: Extract<Source, { kind: 'webcam' }> }) {
  const userId = useStudioStore((s) => s.userId);
  const cameras = useDeviceStore((s) => s.cameras);
  const ownCamera = source.settings.userId === null || source.settings.userId === userId;
  // Resolved against this browser's cameras: 'default' is the first one, an unknown id none (spec §4).
  const deviceId = ownCamera ? resolveWebcamId(source.settings.webcamDeviceId, cameras) : null;
  const stream = useDeviceStore((s) => (deviceId ? s.previews[deviceId] : undefined));
  useEffect(() => {
    if (deviceId) void startCameraPreview(deviceId);
  }, [deviceId]);
  if (!stream) return <SourcePlaceholder kind="camera" detail={source.settings.displayName || undefined} />;
  return <CameraVideo stream={stream} mirrored={source.settings.mirrorCamera} label={`${source.name} preview`} />;
}

function ImageContent({ url, name }: { url: string; name: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) return <SourcePlaceholder kind="unavailable" />;
  return <img className={styles.image} src={url} alt={name} onError={() => setFailed(true)} draggable={false} />;
}

/**
 * A web page: the browser source placeholder while it loads or shows, 'Preview unavailable' with the
 * render worker's reason once it refused the page or could not load it.
 */
export function WebpagePreview({ source, render }: { source: Extract<Source, { kind: 'webpage' }>; render: SourceRenderStatus | undefined }) {
  const { url, title } = source.settings.config;
  if (!url) return <SourcePlaceholder kind="unavailable" detail="Add an address in the source settings" />;
  if (render && (render.state === 'refused' || render.state === 'unavailable')) {
    return <SourcePlaceholder kind="unavailable" reason={render.reason ?? 'The page could not be shown.'} />;
  }
  return <SourcePlaceholder kind="browser" detail={title || url} />;
}

function WebpageContent({ source }: { source: Extract<Source, { kind: 'webpage' }> }) {
  const render = useStudioStore((s) => s.renders[source.id]);
  return <WebpagePreview source={source} render={render} />;
}

/**
 * A guest source: the guest's camera as forwarded to this page's tile. An empty slot (a template's,
 * nobody in it yet) waits for a guest (issue 52: not 'Camera Offline', nothing is broken); a guest
 * in the slot whose picture is not here shows 'Camera Offline' with their name (spec §4 "Guest tile").
 */
function ParticipantContent({ source }: { source: Extract<Source, { kind: 'participant' }> }) {
  const stream = useMediaStore((s) => {
    const tile = s.guestTiles.find((t) => t.userId === source.settings.userId);
    return tile ? (s.tileStreams[tile.mid] ?? null) : null;
  });
  if (stream) return <CameraVideo stream={stream} mirrored={false} label={`${source.settings.displayName || source.name}'s camera`} />;
  if (source.settings.userId === null) return <SourcePlaceholder kind="guest" />;
  return <SourcePlaceholder kind="camera" detail={source.settings.displayName || undefined} />;
}

/**
 * A game source: 'Game Source Offline' until a feed arrives at the ingest (spec §4: it connects and
 * disconnects with the feed); the feed itself is composited by the worker and seen in the program.
 */
function GameContent() {
  const feed = useIngestStore((s) => (s.view?.status.state === 'receiving' && s.view.feed?.state === 'flowing' ? s.view.feed : null));
  if (!feed) return <SourcePlaceholder kind="game" />;
  const size = feed.width && feed.height ? `${feed.width}×${feed.height}` : null;
  return (
    <SourcePlaceholder
      kind="game"
      text="Game feed live"
      detail={[size, feed.fps ? `${Math.round(feed.fps)} fps` : null].filter(Boolean).join(' · ') || undefined}
    />
  );
}

/** What a layer shows on the canvas: live media where this browser has it, else the spec's placeholder. */
export function LayerContent({ source }: { source: Source }) {
  const projectId = useStudioStore((s) => s.document?.projectId ?? '');
  switch (source.kind) {
    case 'webcam':
      return <WebcamContent source={source} />;
    case 'participant':
      return <ParticipantContent source={source} />;
    case 'screenshare':
      return <SourcePlaceholder kind="screenshare" />;
    case 'game':
      return <GameContent />;
    case 'webpage':
      return <WebpageContent source={source} />;
    case 'image':
      // A built-in screen is drawn by the media worker; the editor shows its title where it goes.
      if (source.settings.screen && !source.settings.uploadId) {
        return (
          <div className={styles.screen} data-screen={source.settings.screen}>
            {SCREEN_TITLES[source.settings.screen]}
          </div>
        );
      }
      return <ImageContent url={source.settings.uploadId ? uploadContentPath(projectId, source.settings.uploadId) : source.settings.url} name={source.name} />;
    case 'video':
      return source.settings.uploadId ? (
        <video
          className={styles.video}
          src={uploadContentPath(projectId, source.settings.uploadId)}
          autoPlay
          loop={source.settings.loop}
          muted
          playsInline
          aria-label={source.name}
        />
      ) : (
        <SourcePlaceholder kind="unavailable" detail="Choose a video file in the source settings" />
      );
    case 'watermark':
      return (
        <div className={styles.watermark} aria-label="OnAir logo">
          OnAir
        </div>
      );
    case 'microphone':
      return null;
  }
}
