import { ChevronRight, Plus } from 'lucide-react';
import { useEffect, useId, useRef, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { UPGRADE_TOOLTIP_MORE_DESTINATIONS } from '@onair/protocol';
import { closeDestinations, loadDestinations, openDestinationPicker } from '../../actions/destinations.ts';
import { closeLocalStreams } from '../../actions/local-stream.ts';
import { Button } from '../../components/Button.tsx';
import { IconButton } from '../../components/IconButton.tsx';
import { Tooltip } from '../../components/Tooltip.tsx';
import { counterText } from '../../model/destinations.ts';
import { resetDestinationsHeight, setDestinationsHeight, toggleDestinationsOpen } from '../../actions/side-layout.ts';
import { autoLiveRelevant } from '../../model/live-panel.ts';
import { useDestinationsStore, useIngestStore, useSideLayoutStore } from '../../stores/index.ts';
import { AddDestinationPicker } from './AddDestinationPicker.tsx';
import { BroadcastControl } from './BroadcastControl.tsx';
import { BroadcastSummaryDialog, EndBroadcastDialog, GoLiveCheckDialog } from './BroadcastDialogs.tsx';
import { DestinationFormDialog } from './DestinationFormDialog.tsx';
import { DestinationRow } from './DestinationRow.tsx';
import { LocalWatchPlayer } from './LocalWatchPlayer.tsx';
import { RemoveDestinationDialog } from './RemoveDestinationDialog.tsx';
import { DESTINATION_LIMIT_NOTE_ID, DestinationLimitNote } from './PlanLimitNotes.tsx';
import styles from './Destinations.module.css';

/**
 * The studio's destinations (spec §2): Go Live, the enabled/total counter with Add Destination, a
 * toggle per destination; `children` go below the list (the page puts the Auto Live block there).
 */
export function DestinationsPanel({ projectId, children }: { projectId: string; children?: ReactNode }) {
  useEffect(() => {
    void loadDestinations(projectId);
    return () => {
      closeDestinations();
      closeLocalStreams();
    };
  }, [projectId]);
  const status = useDestinationsStore((s) => s.status);
  const error = useDestinationsStore((s) => s.error);
  const destinations = useDestinationsStore((s) => s.destinations);
  const limitReached = useDestinationsStore((s) => s.limit?.reached ?? false);
  const maximum = useDestinationsStore((s) => s.limit?.maximum);
  // Which listed platforms are the one-machine stack's doubles (a string, so the selector stays stable).
  const testModeText = useDestinationsStore((s) => {
    const types = new Set(s.destinations.map((d) => d.type));
    return (s.picker?.tiles ?? [])
      .filter((t) => t.testMode && types.has(t.type))
      .map((t) => t.label)
      .join('|');
  });
  const testModeLabels = testModeText ? testModeText.split('|') : [];
  const open = useSideLayoutStore((s) => s.destinationsOpen);
  const height = useSideLayoutStore((s) => s.destinationsHeight);
  const ingest = useIngestStore((s) => s.view);
  const consoleOffered = useDestinationsStore((s) => ingest !== null && !autoLiveRelevant(s.destinations, ingest.autoLive, ingest.status.state));
  const onAir = useDestinationsStore((s) => s.broadcast?.state === 'starting' || s.broadcast?.state === 'live');
  const listId = useId();
  const list = useRef<HTMLUListElement>(null);

  // On air the column's room goes to the chat: the heading keeps one line, Add Destination its icon.
  const add = onAir ? (
    <IconButton
      label="Add Destination"
      icon={<Plus size={16} />}
      onClick={openDestinationPicker}
      disabled={limitReached || status !== 'ready'}
      aria-disabled={limitReached}
    />
  ) : (
    <Button
      variant="secondary"
      className={styles.addButton}
      onClick={openDestinationPicker}
      disabled={limitReached || status !== 'ready'}
      aria-disabled={limitReached}
      aria-describedby={limitReached ? DESTINATION_LIMIT_NOTE_ID : undefined}
    >
      <Plus size={16} aria-hidden /> Add Destination
    </Button>
  );
  const testModeLink = (
    <a href={`/projects/${projectId}/test-mode`} target="_blank" rel="noopener">
      Act as the audience
    </a>
  );
  return (
    <section className={styles.panel} aria-label="Destinations">
      <BroadcastControl consoleOffered={consoleOffered} />
      <div className={styles.headingRow}>
        {/* Folded to its heading by the creator, it stays folded (kept in this browser). */}
        <h2 className={styles.heading}>
          <button type="button" className={styles.headingToggle} aria-expanded={open} aria-controls={listId} onClick={toggleDestinationsOpen}>
            <ChevronRight size={14} className={open ? styles.chevronDown : styles.chevronRight} aria-hidden />
            Destinations
          </button>
        </h2>
        <div className={styles.headingActions}>
          {onAir && testModeLabels.length > 0 && (
            <span className={styles.testModeBadge} title={`Test mode: ${testModeLabels.join(', ')}`}>
              <a
                href={`/projects/${projectId}/test-mode`}
                target="_blank"
                rel="noopener"
                aria-label={`Act as the audience (test mode: ${testModeLabels.join(', ')})`}
              >
                Test mode
              </a>
            </span>
          )}
          <span className={styles.counter} aria-label="Enabled destinations">
            {counterText(destinations)}
          </span>
          {/* Beside the heading, so it shows however many destinations the list holds. A disabled button gets no pointer events: the tooltip hangs on a wrapper. */}
          {limitReached ? (
            <Tooltip content={UPGRADE_TOOLTIP_MORE_DESTINATIONS}>
              <span tabIndex={0}>{add}</span>
            </Tooltip>
          ) : (
            add
          )}
        </div>
      </div>
      {limitReached && <DestinationLimitNote maximum={maximum} />}
      <div id={listId} className={styles.listArea} hidden={!open}>
        {status === 'error' && <p className={styles.formError}>{error}</p>}
        {status === 'ready' && destinations.length === 0 && <p className={styles.empty}>Add a destination to choose where your stream goes.</p>}
        {destinations.length > 0 && (
          <ul ref={list} className={styles.list} aria-label="Your destinations" style={height === null ? undefined : { maxHeight: height }}>
            {/* On air the ones switched on come first (in their order): the ones off wait at the end. */}
            {(onAir ? [...destinations.filter((d) => d.enabled), ...destinations.filter((d) => !d.enabled)] : destinations).map((d) => (
              <DestinationRow key={d.id} destination={d} />
            ))}
          </ul>
        )}
      </div>
      {!onAir && testModeLabels.length > 0 && (
        <p className={styles.testModeNote}>
          <span>Test mode: {testModeLabels.join(', ')}</span>
          {testModeLink}
        </p>
      )}
      {children}
      {open && destinations.length > 0 && <ResizeHandle list={list} />}
      <AddDestinationPicker />
      <DestinationFormDialog />
      <RemoveDestinationDialog />
      <LocalWatchPlayer />
      <GoLiveCheckDialog />
      <EndBroadcastDialog />
      <BroadcastSummaryDialog />
    </section>
  );
}

const KEY_STEP_PX = 24;

/**
 * The edge between the destinations and the chat below: dragged (or moved with the arrow keys), it
 * sets how tall the destinations list may grow; the chat takes the rest. Kept in this browser.
 */
function ResizeHandle({ list }: { list: { current: HTMLUListElement | null } }) {
  const height = useSideLayoutStore((s) => s.destinationsHeight);
  const drag = useRef<{ startY: number; startHeight: number } | null>(null);
  const current = () => height ?? list.current?.getBoundingClientRect().height ?? 0;
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    drag.current = { startY: e.clientY, startHeight: list.current?.getBoundingClientRect().height ?? current() };
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (drag.current) setDestinationsHeight(drag.current.startHeight + e.clientY - drag.current.startY);
  };
  const onPointerUp = () => {
    drag.current = null;
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'ArrowUp') setDestinationsHeight(current() - KEY_STEP_PX);
    else if (e.key === 'ArrowDown') setDestinationsHeight(current() + KEY_STEP_PX);
    else if (e.key === 'Home') resetDestinationsHeight();
    else return;
    e.preventDefault();
  };
  return (
    <div
      role="separator"
      aria-orientation="horizontal"
      aria-label="Resize destinations and chat"
      aria-valuenow={Math.round(current())}
      tabIndex={0}
      className={styles.resizeHandle}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
      onDoubleClick={resetDestinationsHeight}
    />
  );
}
