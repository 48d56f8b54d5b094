import { ArrowLeft, Plus, Settings, UserMinus, UserPlus, Volume2, VolumeX } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { hasPermission, type Guest, type GuestTile, type ProjectRole, type Source } from '@onair/protocol';
import { addGuestToScene, removeGuest, setParticipantMuted, setParticipantVolume, showInviteView } from '../../actions/guest-panel.ts';
import { openPanel } from '../../actions/studio.ts';
import { Button } from '../../components/Button.tsx';
import { IconButton } from '../../components/IconButton.tsx';
import { DEFAULT_PARTICIPANT_AUDIO, GUEST_VOLUME_STEP, type ParticipantAudio } from '../../model/participant-audio.ts';
import { useGuestsStore, useMediaStore, useStudioStore } from '../../stores/index.ts';
import { CameraVideo } from '../media/LayerContent.tsx';
import { OwnMediaButtons } from '../media/OwnMediaButtons.tsx';
import { SourcePlaceholder } from '../media/SourcePlaceholder.tsx';
import { InviteGuestsPanel, type InviteGuestsPanelProps } from './InviteGuestsPanel.tsx';
import { ProjectPeople } from './ProjectPeople.tsx';
import styles from './GuestsPanel.module.css';

type ParticipantSource = Extract<Source, { kind: 'participant' }>;

/**
 * The Guests tab (spec §2, §4 "Guest tile"): the host's own camera with camera, microphone and
 * settings buttons, then one tile per guest in the room. A tile plays the guest's camera (forwarded
 * by the worker) or shows 'Camera Offline', with their name, a volume slider with mute, and an 'Add
 * to scene' overlay. With nobody there the invite view shows directly; otherwise 'Invite Guest'
 * switches to it.
 */
export function GuestsPanel() {
  const guests = useGuestsStore((s) => s.guests);
  const inviting = useGuestsStore((s) => s.inviting);
  const maximum = useGuestsStore((s) => s.maximum);
  const busy = useGuestsStore((s) => s.linkBusy);
  const role = useStudioStore((s) => s.project?.role);
  const members = useGuestsStore((s) => s.members);
  const invitations = useGuestsStore((s) => s.invitations);
  const peopleError = useGuestsStore((s) => s.peopleError);
  return (
    <GuestsPanelView
      guests={guests}
      inviting={inviting}
      role={role ?? null}
      invite={{ maximum, busy, isOwner: role === 'host' }}
      people={{ members, invitations, error: peopleError }}
    />
  );
}

export function GuestsPanelView(props: {
  guests: Guest[];
  inviting: boolean;
  role: ProjectRole | null;
  invite: InviteGuestsPanelProps;
  people?: Parameters<typeof ProjectPeople>[0];
}) {
  const { guests, inviting, role, invite, people } = props;
  const canInvite = hasPermission(role, 'invite guests');
  if (canInvite && (guests.length === 0 || inviting)) {
    return (
      <div className={styles.panel}>
        {guests.length > 0 && (
          <Button variant="ghost" className={styles.back} onClick={() => showInviteView(false)}>
            <ArrowLeft size={16} aria-hidden /> Back to guests
          </Button>
        )}
        <OwnTile />
        <InviteGuestsPanel {...invite} guests={guests.length} />
        {people && hasPermission(role, 'manage guests') && <ProjectPeople {...people} />}
      </div>
    );
  }
  return (
    <div className={styles.panel}>
      <OwnTile />
      {canInvite && (
        <Button onClick={() => showInviteView(true)}>
          <UserPlus size={16} aria-hidden /> Invite Guest
        </Button>
      )}
      {guests.length === 0 ? (
        <p className={styles.hint}>No guests are in the studio.</p>
      ) : (
        <ul className={styles.guests} aria-label="Guests">
          {guests.map((guest) => (
            <ConnectedGuestTile key={guest.id} guest={guest} canManage={hasPermission(role, 'manage guests')} />
          ))}
        </ul>
      )}
    </div>
  );
}

function OwnTile() {
  const camera = useMediaStore((s) => s.camera);
  const userId = useStudioStore((s) => s.userId);
  const ownCameraSource = useStudioStore((s) =>
    s.document?.sources.find((source) => source.kind === 'webcam' && (source.settings.userId === null || source.settings.userId === userId)),
  );
  const stream = useMemo(() => (camera ? new MediaStream([camera]) : null), [camera]);
  return (
    <section className={styles.own} aria-label="Your camera">
      <div className={styles.ownPicture}>
        {stream ? (
          <CameraVideo stream={stream} mirrored={ownCameraSource?.kind === 'webcam' && ownCameraSource.settings.mirrorCamera} label="Your camera" />
        ) : (
          <SourcePlaceholder kind="camera" />
        )}
      </div>
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

function ConnectedGuestTile({ guest, canManage }: { guest: Guest; canManage: boolean }) {
  const tile = useMediaStore((s) => s.guestTiles.find((t) => t.userId === guest.id));
  const stream = useMediaStore((s) => (tile ? (s.tileStreams[tile.mid] ?? null) : null));
  const source = useStudioStore((s) =>
    s.document?.sources.find((src): src is ParticipantSource => src.kind === 'participant' && src.settings.userId === guest.id),
  );
  const remembered = useGuestsStore((s) => s.audio[guest.id]);
  return <GuestTileView guest={guest} tile={tile} stream={stream} source={source} canManage={canManage} remembered={remembered} />;
}

/** One guest: `source` is their guest source in the project, if the host added one. */
export function GuestTileView(props: {
  guest: Guest;
  tile: GuestTile | undefined;
  stream: MediaStream | null;
  source: ParticipantSource | undefined;
  canManage: boolean;
  /** The volume and mute remembered for this guest in this browser (spec §3). */
  remembered?: ParticipantAudio | undefined;
}) {
  const { guest, tile, stream, source, canManage } = props;
  const playing = usePlaying(stream);
  const name = guest.displayName || source?.settings.displayName || 'Guest';
  return (
    <li className={styles.tile} aria-label={name} data-testid="guest-tile" data-user-id={guest.id} data-camera={playing ? 'on' : 'off'}>
      <div className={styles.picture}>
        {stream && tile && <CameraVideo stream={stream} mirrored={false} label={`${name}'s camera`} />}
        {!playing && <SourcePlaceholder kind="camera" detail={name} />}
        <button type="button" className={styles.add} onClick={() => addGuestToScene(guest.id, guest.displayName)}>
          <Plus size={16} aria-hidden /> Add to scene
        </button>
      </div>
      <div className={styles.bar}>
        <span className={styles.name} title={guest.byRevokedLink ? 'Joined by a guest link you have since replaced' : undefined}>
          {name}
        </span>
        <GuestVolume participantId={guest.id} name={name} source={source} remembered={props.remembered ?? DEFAULT_PARTICIPANT_AUDIO} />
        {canManage && <IconButton label={`Remove ${name} from the studio`} icon={<UserMinus size={16} />} onClick={() => void removeGuest(guest.id)} />}
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

/**
 * Spec §5: the slider runs 0 to 1 in steps of 0.01 and moving it unmutes; volume and mute are
 * remembered per participant (§3) and, once the guest is in a scene, set on their guest source
 * (committed when the slider is let go, so one drag is one edit).
 */
function GuestVolume({
  participantId,
  name,
  source,
  remembered,
}: {
  participantId: string;
  name: string;
  source: ParticipantSource | undefined;
  remembered: ParticipantAudio;
}) {
  const [draft, setDraft] = useState<number | null>(null);
  const volume = source?.settings.volume ?? remembered.volume;
  const muted = draft !== null ? false : (source?.settings.muted ?? remembered.muted);
  const commit = () => {
    if (draft !== null) setParticipantVolume(participantId, draft, source?.id ?? null);
    setDraft(null);
  };
  return (
    <>
      <IconButton
        label={muted ? `Unmute ${name}` : `Mute ${name}`}
        icon={muted ? <VolumeX size={16} /> : <Volume2 size={16} />}
        aria-pressed={muted}
        onClick={() => setParticipantMuted(participantId, !muted, source?.id ?? null)}
      />
      <input
        className={styles.volume}
        type="range"
        min={0}
        max={1}
        step={GUEST_VOLUME_STEP}
        value={draft ?? volume}
        aria-label={`${name} volume`}
        onChange={(e) => setDraft(Number(e.target.value))}
        onPointerUp={commit}
        onKeyUp={commit}
        onBlur={commit}
      />
    </>
  );
}
