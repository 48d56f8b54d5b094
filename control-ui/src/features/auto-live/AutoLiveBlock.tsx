import { Copy, Eye, EyeOff, Gamepad2, RefreshCw, Settings } from 'lucide-react';
import { useEffect, useState } from 'react';
import { consoleGuides, TWITCH_REQUIRED_TOOLTIP, type ConsoleKind } from '@onair/protocol';
import {
  closeIngest,
  closeIngestSettings,
  copyIngestText,
  loadIngest,
  openConsoleGuide,
  openIngestSettings,
  regenerateIngestKey,
  setAutoLive,
  toggleIngestKeyShown,
} from '../../actions/ingest.ts';
import { Button } from '../../components/Button.tsx';
import { IconButton } from '../../components/IconButton.tsx';
import { Modal } from '../../components/Modal.tsx';
import { Switch } from '../../components/Switch.tsx';
import { Tooltip } from '../../components/Tooltip.tsx';
import { ingestStatusLine } from '../../model/ingest.ts';
import { autoLiveRelevant } from '../../model/live-panel.ts';
import { useDestinationsStore, useIngestStore } from '../../stores/index.ts';
import { ConsoleGuideModal } from './ConsoleGuideModal.tsx';
import styles from './AutoLive.module.css';

export const INGEST_SETTINGS_TITLE = 'Auto Live, encoder and console';

/**
 * Auto Live in the side column (spec §2, issue 52): one line, the toggle (disabled without an
 * enabled Twitch destination, 'Twitch required') and the feed's state, shown once it is relevant
 * (a Twitch channel linked, Auto Live on, or a feed arriving). The ingest's address and key, the
 * console address and the guides are set up once: they open in a dialog from the line's settings
 * button, or, for a camera-only project, from the console button beside Add Destination.
 */
export function AutoLiveBlock({ projectId }: { projectId: string }) {
  useEffect(() => {
    void loadIngest(projectId);
    return () => closeIngest();
  }, [projectId]);
  const status = useIngestStore((s) => s.status);
  const view = useIngestStore((s) => s.view);
  const error = useIngestStore((s) => s.error);
  const relevant = useDestinationsStore((s) => autoLiveRelevant(s.destinations, view?.autoLive ?? false, view?.status.state));
  // On air its state sits beside the broadcast timer (AutoLiveIndicator): the column's room goes to the chat.
  const onAir = useDestinationsStore((s) => s.broadcast?.state === 'starting' || s.broadcast?.state === 'live');
  if (status === 'error') return <p className={styles.error}>{error}</p>;
  if (!view) return null;
  return (
    <>
      {relevant && !onAir && (
        <section className={styles.block} aria-label="Auto Live">
          <div className={styles.headingRow}>
            <h2 className={styles.heading}>Auto Live</h2>
            <AutoLiveStatus compact />
            <AutoLiveToggle hideLabel />
            <IconButton label="Encoder and console settings" icon={<Settings size={16} />} onClick={openIngestSettings} />
          </div>
        </section>
      )}
      <IngestSettingsModal />
      <ConsoleGuideModal />
    </>
  );
}

/**
 * On air, beside the broadcast timer: Auto Live's state as a light on the console icon, the whole
 * status on hover, and the settings (the toggle among them) on click. Shown only when Auto Live is relevant.
 */
export function AutoLiveIndicator() {
  const view = useIngestStore((s) => s.view);
  const relevant = useDestinationsStore((s) => autoLiveRelevant(s.destinations, view?.autoLive ?? false, view?.status.state));
  const now = useNow(view?.status.state === 'dropped');
  if (!view || !relevant) return null;
  const line = ingestStatusLine(view.status, view.feed, view.autoLive, now);
  const text = `Auto Live ${view.autoLive ? 'on' : 'off'}: ${line.text}`;
  return (
    <button
      type="button"
      className={styles.indicator}
      data-on={view.autoLive}
      title={text}
      aria-label={`Auto Live, encoder and console settings (${text})`}
      onClick={openIngestSettings}
    >
      <Gamepad2 size={16} aria-hidden />
      <span className={styles.light} data-light={line.light} aria-hidden />
    </button>
  );
}

/** Beside Add Destination while Auto Live has no line of its own: the way to stream from a console or an encoder. */
export function ConsoleSettingsButton() {
  return <IconButton label="Stream from a console or encoder" icon={<Gamepad2 size={16} />} onClick={openIngestSettings} />;
}

function AutoLiveToggle({ hideLabel = false }: { hideLabel?: boolean }) {
  const view = useIngestStore((s) => s.view);
  const switching = useIngestStore((s) => s.switching);
  // The destinations list is live (toggles in any tab): it decides whether Auto Live may be switched on.
  const twitchEnabled = useDestinationsStore((s) => s.destinations.some((d) => d.type === 'Twitch' && d.enabled));
  if (!view) return null;
  const canSwitch = view.autoLive || twitchEnabled;
  const toggle = (
    <Switch label="Auto Live" hideLabel={hideLabel} checked={view.autoLive} disabled={!canSwitch || switching} onCheckedChange={(on) => void setAutoLive(on)} />
  );
  return canSwitch ? (
    toggle
  ) : (
    <Tooltip content={TWITCH_REQUIRED_TOOLTIP}>
      <span tabIndex={0}>{toggle}</span>
    </Tooltip>
  );
}

function AutoLiveStatus({ compact = false }: { compact?: boolean }) {
  const view = useIngestStore((s) => s.view);
  const now = useNow(view?.status.state === 'dropped');
  if (!view) return null;
  const line = ingestStatusLine(view.status, view.feed, view.autoLive, now);
  return (
    <p className={compact ? styles.compactStatus : styles.status} role="status" aria-label="Ingest status" title={compact ? line.text : undefined}>
      <span className={styles.light} data-light={line.light} aria-hidden />
      <span className={compact ? styles.statusText : undefined}>{line.text}</span>
    </p>
  );
}

function IngestSettingsModal() {
  const open = useIngestStore((s) => s.settingsOpen);
  const view = useIngestStore((s) => s.view);
  const keyShown = useIngestStore((s) => s.keyShown);
  const regenerating = useIngestStore((s) => s.regenerating);
  if (!view) return null;
  return (
    <Modal
      open={open}
      onClose={closeIngestSettings}
      title={INGEST_SETTINGS_TITLE}
      description="Stream from an encoder or a console; Auto Live starts the broadcast when the feed arrives."
    >
      <div className={styles.settings}>
        <div className={styles.headingRow}>
          <h3 className={styles.heading}>Auto Live</h3>
          <AutoLiveToggle />
        </div>
        <AutoLiveStatus />
        <p className={styles.consoleHint}>
          With Auto Live on, a feed's arrival starts the broadcast and its absence past the grace period ends it. It needs a Twitch destination.
        </p>
        <dl className={styles.fields}>
          <dt>Server</dt>
          <dd>
            <code className={styles.value}>{view.serverUrl}</code>
            <IconButton label="Copy server address" icon={<Copy size={14} />} onClick={() => void copyIngestText(view.serverUrl, 'Server address')} />
          </dd>
          <dt>Stream key</dt>
          <dd>
            <code className={styles.value} aria-label="Stream key">
              {keyShown ? view.streamKey : '•'.repeat(16)}
            </code>
            <IconButton
              label={keyShown ? 'Hide stream key' : 'Show stream key'}
              icon={keyShown ? <EyeOff size={14} /> : <Eye size={14} />}
              onClick={toggleIngestKeyShown}
            />
            <IconButton label="Copy stream key" icon={<Copy size={14} />} onClick={() => void copyIngestText(view.streamKey, 'Stream key')} />
            <IconButton label="Generate a new stream key" icon={<RefreshCw size={14} />} disabled={regenerating} onClick={() => void regenerateIngestKey()} />
          </dd>
          <dt>Console</dt>
          <dd>
            <code className={styles.value}>{view.consoleServerUrl}</code>
            <IconButton label="Copy console address" icon={<Copy size={14} />} onClick={() => void copyIngestText(view.consoleServerUrl, 'Console address')} />
          </dd>
        </dl>
        <p className={styles.consoleHint}>Consoles stream to the console address with your Twitch stream key.</p>
        <div className={styles.guides}>
          {(Object.keys(consoleGuides) as ConsoleKind[]).map((kind) => (
            <Button key={kind} variant="secondary" onClick={() => openConsoleGuide(kind)}>
              {kind === 'xbox' ? 'Xbox guide' : 'PlayStation guide'}
            </Button>
          ))}
        </div>
      </div>
    </Modal>
  );
}

function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    // Counting starts from now, not from when the block first rendered.
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}
