import { useEffect, useRef } from 'react';
import type { LocalStream } from '@onair/protocol';
import { closeLocalWatch, setLocalWatchState } from '../../actions/local-stream.ts';
import { Modal } from '../../components/Modal.tsx';
import { useDestinationsStore, useLocalStreamStore, type LocalWatchState } from '../../stores/index.ts';
import { startWatchPlayback } from './hls-watch.ts';
import styles from './LocalStream.module.css';

export const NOTHING_LIVE_TEXT = 'Nothing is live on this address yet. Go live with Local on to watch it here.';

/** The Watch player of the Local destination opened from its card or Edit dialog. */
export function LocalWatchPlayer() {
  const watch = useLocalStreamStore((s) => s.watch);
  const view = useLocalStreamStore((s) => (s.watch ? s.streams[s.watch.destinationId]?.view : null)) ?? null;
  const watchedId = watch?.destinationId;
  const name = useDestinationsStore((s) => s.destinations.find((d) => d.id === watchedId)?.name ?? null);
  return (
    <Modal open={watch !== null} onClose={closeLocalWatch} title={`Watch ${name ?? 'Local'}`} description="The Local stream as a viewer gets it." size="large">
      {watch && view && <LocalWatchScreen view={view} state={watch.state} error={watch.error} />}
    </Modal>
  );
}

/** The player itself, apart from its dialog (so its states render on their own in tests). */
export function LocalWatchScreen({ view, state, error }: { view: LocalStream; state: LocalWatchState; error: string | null }) {
  const video = useRef<HTMLVideoElement>(null);
  const { destinationId, hlsUrl } = view;
  useEffect(() => {
    if (!video.current || !hlsUrl) return;
    return startWatchPlayback(video.current, hlsUrl, (s, e) => setLocalWatchState(destinationId, s, e ?? null));
  }, [destinationId, hlsUrl]);
  const message = screenMessage(state, error);
  return (
    <div className={styles.player}>
      <div className={styles.screen}>
        {/* Muted at first: the program carries the creator's microphone, which would hear it again. */}
        <video ref={video} className={styles.video} data-testid="local-watch-video" muted playsInline controls={state === 'playing'} />
        {message && (
          <p className={styles.screenMessage} role="status">
            {message}
          </p>
        )}
      </div>
      <p className={styles.caption}>
        {view.watchDelaySeconds !== null && `About ${view.watchDelaySeconds} s behind the program. `}
        Muted so your microphone does not pick it up: unmute it with the player's controls, with headphones on.
      </p>
    </div>
  );
}

function screenMessage(state: LocalWatchState, error: string | null): string | null {
  switch (state) {
    case 'connecting':
      return 'Connecting…';
    case 'offline':
      return NOTHING_LIVE_TEXT;
    case 'unsupported':
      return 'This browser cannot play the stream. Copy the address and open it in a player such as VLC.';
    case 'error':
      return error ?? 'The stream cannot be played here.';
    case 'playing':
      return null;
  }
}
