import { LogOut } from 'lucide-react';
import { useCallback, useMemo, useState } from 'react';
import { playsOutputAudio } from '@onair/protocol';
import { leaveStudioAsGuest } from '../../actions/guest-page.ts';
import { Button } from '../../components/Button.tsx';
import { Tabs } from '../../components/Tabs.tsx';
import { useAppStore, useGuestsStore, useMediaStore } from '../../stores/index.ts';
import { OwnMediaButtons } from '../media/OwnMediaButtons.tsx';
import { ProgramPreview } from '../media/ProgramPreview.tsx';
import { CameraVideo } from '../media/LayerContent.tsx';
import { SourcePlaceholder } from '../media/SourcePlaceholder.tsx';
import { GuestChat } from './GuestChat.tsx';
import styles from './GuestPage.module.css';

const connectionLabel = {
  idle: 'Not connected',
  connecting: 'Connecting…',
  connected: 'Connected',
  reconnecting: 'Reconnecting…',
  closed: 'Disconnected',
} as const;

/**
 * A guest in the room: the program as it goes out (spec §2: the guest sees the program preview),
 * their own camera with camera and microphone buttons, Guest Chat, and Leave.
 */
export function GuestStudio({ projectName, displayName }: { projectName: string; displayName: string }) {
  const preview = useMediaStore((s) => s.preview);
  const camera = useMediaStore((s) => s.camera);
  const connection = useMediaStore((s) => s.connection);
  const room = useMediaStore((s) => s.room);
  const roomError = useMediaStore((s) => s.roomError);
  const role = useMediaStore((s) => s.role);
  const mirrored = useAppStore((s) => s.isMirrored);
  const unread = useGuestsStore((s) => s.unread);
  const [live, setLive] = useState(false);
  const onLive = useCallback((isLive: boolean) => setLive(isLive), []);
  const own = useMemo(() => (camera ? new MediaStream([camera]) : null), [camera]);
  return (
    <div className={styles.studio}>
      <header className={styles.bar}>
        <div>
          <p className={styles.kicker}>Guest{displayName ? ` · ${displayName}` : ''}</p>
          <h1 className={styles.studioTitle}>{projectName}</h1>
        </div>
        <span className={styles.connection} data-state={connection} role="status" data-testid="media-connection">
          {room === 'refused' ? 'Not allowed to join' : connectionLabel[connection]}
        </span>
        <Button onClick={() => void leaveStudioAsGuest()}>
          <LogOut size={16} aria-hidden /> Leave
        </Button>
      </header>
      {roomError && (
        <p className={styles.problem} role="alert">
          {roomError}
        </p>
      )}
      <main className={styles.stage}>
        <section className={styles.program} aria-label="Program" data-preview={live ? 'live' : 'waiting'}>
          {/* Spec §5: only the renderer role plays audio; a guest hears the host through their own call, not the program. */}
          <ProgramPreview stream={preview} onLive={onLive} muted={!playsOutputAudio(role)} />
          {!live && <p className={styles.waiting}>The program appears here once you are connected.</p>}
        </section>
        <aside className={styles.sidebar}>
          <section className={styles.self} aria-label="Your camera">
            <div className={styles.selfPicture}>
              {own ? <CameraVideo stream={own} mirrored={mirrored} label="Your camera" /> : <SourcePlaceholder kind="camera" />}
            </div>
            <div className={styles.selfBar}>
              <span>You</span>
              <OwnMediaButtons />
            </div>
          </section>
          <div className={styles.chatBox}>
            <Tabs
              label="Guest side panel"
              initialTab="guest-chat"
              tabs={[{ id: 'guest-chat', label: 'Guest Chat', panel: <GuestChat />, ...(unread ? { badge: 'Unread messages' } : {}) }]}
            />
          </div>
        </aside>
      </main>
    </div>
  );
}
