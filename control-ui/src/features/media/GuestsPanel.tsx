import { Plus, Settings, Users, Volume2, VolumeX } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import type { GuestTile, Source } from '@onair/protocol';
import { addSourceToScene, updateSource } from '../../actions/scene-edits.ts';
import { openPanel } from '../../actions/studio.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { IconButton } from '../../components/IconButton.tsx';
import { useMediaStore, useStudioStore } from '../../stores/index.ts';
import { CameraVideo } from '../studio/LayerContent.tsx';
import { OwnMediaButtons } from './OwnMediaButtons.tsx';
import { SourcePlaceholder } from '../studio/SourcePlaceholder.tsx';
import styles from './GuestsPanel.module.css';

type ParticipantSource = Extract<Source, { kind: 'participant' }>;

/**
 * The Guests tab (spec §2, §4 "Guest tile"): the host's own camera with camera, microphone and
 * settings buttons, then one tile per guest whose camera the worker forwards to this page. A tile
 * plays the guest's camera or shows 'Camera Offline', with their name, the volume and mute of
 * their guest source, and an 'Add to scene' overlay that adds a guest source for them.
 */
export function GuestsPanel() {
  const tiles = useMediaStore((s) => s.guestTiles);
  return (
    <div className={styles.panel}>
      <OwnTile />
      {tiles.length === 0 ? (
        <EmptyState icon={<Users size={28} />} title="No guests yet">
          <p>Guests who join through your guest link appear here.</p>
        </EmptyState>
      ) : (
        <ul className={styles.guests} aria-label="Guests">
          {tiles.map((tile) => (
            <ConnectedGuestTile key={tile.participantId} tile={tile} />
          ))}
        </ul>
      )}
    </div>
  );
}

function OwnTile() {
  const camera = useMediaStore((s) => s.camera);
  const userId = useStudioStore((s) => s.userId);
  const ownCameraSource = useStudioStore((s) => s.document?.sources.find((source) => source.kind === 'webcam' && (source.settings.userId === null || source.settings.userId === userId)));
  const stream = useMemo(() => (camera ? new MediaStream([camera]) : null), [camera]);
  return (
    <section className={styles.tile} aria-label="Your camera">
      <div className={styles.picture}>{stream ? <CameraVideo stream={stream} mirrored={ownCameraSource?.kind === 'webcam' && ownCameraSource.settings.mirrorCamera} label="Your camera" /> : <SourcePlaceholder kind="camera" />}</div>
      <div className={styles.bar}>
        <span className={styles.name}>You</span>
        <OwnMediaButtons />
        <IconButton
          label="Camera settings"
          icon={<Settings size={16} />}
          disabled={!ownCameraSource}
          onClick={() => ownCameraSource && openPanel({ kind: 'camera-settings', sourceId: ownCameraSource.id })}
        />
      </div>
    </section>
  );
}

function ConnectedGuestTile({ tile }: { tile: GuestTile }) {
  const stream = useMediaStore((s) => s.tileStreams[tile.mid] ?? null);
  const source = useStudioStore((s) => s.document?.sources.find((src): src is ParticipantSource => src.kind === 'participant' && src.settings.userId === tile.userId));
  return <GuestTileView tile={tile} stream={stream} source={source} />;
}

/** One guest: `source` is their guest source in the project, if the host added one. */
export function GuestTileView({ tile, stream, source }: { tile: GuestTile; stream: MediaStream | null; source: ParticipantSource | undefined }) {
  const playing = usePlaying(stream);
  const name = source?.settings.displayName || source?.name || 'Guest';
  return (
    <li className={styles.tile} aria-label={name} data-testid="guest-tile" data-user-id={tile.userId}>
      <div className={styles.picture}>
        {stream && <CameraVideo stream={stream} mirrored={false} label={`${name}'s camera`} />}
        {!playing && <SourcePlaceholder kind="camera" detail={name} />}
        <button type="button" className={styles.add} onClick={() => addSourceToScene('participant', { userId: tile.userId, displayName: name === 'Guest' ? '' : name })}>
          <Plus size={16} aria-hidden /> Add to scene
        </button>
      </div>
      <div className={styles.bar}>
        <span className={styles.name}>{name}</span>
        <GuestVolume source={source} />
      </div>
    </li>
  );
}

/** A forwarded camera counts as shown once its track delivers frames; a muted track shows the placeholder again. */
function usePlaying(stream: MediaStream | null): boolean {
  const [playing, setPlaying] = useState(false);
  useEffect(() => {
    const track = stream?.getVideoTracks()[0];
    setPlaying(track !== undefined && !track.muted && track.readyState === 'live');
    if (!track) return;
    const update = () => setPlaying(!track.muted && track.readyState === 'live');
    track.addEventListener('mute', update);
    track.addEventListener('unmute', update);
    track.addEventListener('ended', update);
    return () => {
      track.removeEventListener('mute', update);
      track.removeEventListener('unmute', update);
      track.removeEventListener('ended', update);
    };
  }, [stream]);
  return playing;
}

/** The volume and mute of the guest's source in the mix; committed when the slider is let go. */
function GuestVolume({ source }: { source: ParticipantSource | undefined }) {
  const [draft, setDraft] = useState<number | null>(null);
  if (!source) return <span className={styles.hint}>Add to a scene to set the volume</span>;
  const { volume, muted } = source.settings;
  const commit = () => {
    if (draft !== null && draft !== volume) updateSource(source.id, { settings: { kind: 'participant', volume: draft } });
    setDraft(null);
  };
  return (
    <>
      <IconButton
        label={muted ? `Unmute ${source.name}` : `Mute ${source.name}`}
        icon={muted ? <VolumeX size={16} /> : <Volume2 size={16} />}
        aria-pressed={muted}
        onClick={() => updateSource(source.id, { settings: { kind: 'participant', muted: !muted } })}
      />
      <input
        className={styles.volume}
        type="range"
        min={0}
        max={1}
        step={0.05}
        value={draft ?? volume}
        aria-label={`${source.name} volume`}
        onChange={(e) => setDraft(Number(e.target.value))}
        onPointerUp={commit}
        onKeyUp={commit}
        onBlur={commit}
      />
    </>
  );
}
