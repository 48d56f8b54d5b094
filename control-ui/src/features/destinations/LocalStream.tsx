import { Copy, Eye, EyeOff, Play, RefreshCw } from 'lucide-react';
import { useEffect } from 'react';
import type { DestinationView } from '@onair/protocol';
import { copyLocalStreamAddress, loadLocalStream, openLocalWatch, rotateLocalStream, toggleLocalStreamShown } from '../../actions/local-stream.ts';
import { Button } from '../../components/Button.tsx';
import { IconButton } from '../../components/IconButton.tsx';
import { useLocalStreamStore, type LocalStreamEntry } from '../../stores/index.ts';
import styles from './LocalStream.module.css';

/** The address with its stream name hidden: everything up to the last `/` stays readable. */
export function maskedPlayUrl(playUrl: string): string {
  const cut = playUrl.lastIndexOf('/');
  return `${playUrl.slice(0, cut + 1)}${'•'.repeat(8)}`;
}

/**
 * Where a Local destination's stream can be watched (issue 51): its address (the stream name masked
 * until Show, as stream keys are), Copy, and Watch, which plays it in the studio. On the
 * destination's card and in its Edit dialog; `onWatch` runs before the player opens (the dialog closes).
 * `rotatable` (the Edit dialog) offers a new address, as a stream key is regenerated.
 */
export function LocalStreamAddress({ destination, onWatch, rotatable = false }: { destination: DestinationView; onWatch?: () => void; rotatable?: boolean }) {
  const { id, projectId } = destination;
  useEffect(() => {
    void loadLocalStream(projectId, id);
  }, [projectId, id]);
  const entry = useLocalStreamStore((s) => s.streams[id]);
  const shown = useLocalStreamStore((s) => s.shown[id] ?? false);
  return (
    <LocalStreamAddressView
      destinationId={id}
      entry={entry}
      shown={shown}
      onWatch={onWatch}
      onRotate={rotatable ? () => void rotateLocalStream(projectId, id) : undefined}
    />
  );
}

/** The address as the store has it (apart from the store, so its states render on their own in tests). */
export function LocalStreamAddressView({
  destinationId: id,
  entry,
  shown,
  onWatch,
  onRotate,
}: {
  destinationId: string;
  entry: LocalStreamEntry | undefined;
  shown: boolean;
  onWatch?: (() => void) | undefined;
  onRotate?: (() => void) | undefined;
}) {
  if (!entry || entry.status === 'loading') return <p className={styles.note}>Looking up where to watch this stream…</p>;
  if (entry.status === 'error' || !entry.view)
    return (
      <p className={styles.error} role="alert">
        {entry.error ?? 'The address of this stream could not be loaded.'}
      </p>
    );
  const { view } = entry;
  return (
    <div className={styles.address} data-testid="local-stream-address">
      {/* Its own line, wrapping when shown: the whole address stays readable in the side column. */}
      <code className={styles.value} aria-label="Local stream address">
        {shown ? view.playUrl : maskedPlayUrl(view.playUrl)}
      </code>
      <div className={styles.addressActions}>
        {view.hlsUrl && (
          <Button
            variant="secondary"
            className={styles.watch}
            onClick={() => {
              onWatch?.();
              openLocalWatch(id);
            }}
          >
            <Play size={14} aria-hidden /> Watch
          </Button>
        )}
        <IconButton
          label={shown ? 'Hide stream name' : 'Show stream name'}
          icon={shown ? <EyeOff size={14} /> : <Eye size={14} />}
          className={styles.icon}
          onClick={() => toggleLocalStreamShown(id)}
        />
        <IconButton label="Copy Local stream address" icon={<Copy size={14} />} className={styles.icon} onClick={() => void copyLocalStreamAddress(id)} />
        {onRotate && <IconButton label="Give this stream a new address" icon={<RefreshCw size={14} />} className={styles.icon} onClick={onRotate} />}
      </div>
    </div>
  );
}
