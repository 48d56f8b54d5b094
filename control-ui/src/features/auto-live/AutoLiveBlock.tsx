import { Copy, Eye, EyeOff, RefreshCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { consoleGuides, TWITCH_REQUIRED_TOOLTIP, type ConsoleKind } from '@onair/protocol';
import { closeIngest, copyIngestText, loadIngest, openConsoleGuide, regenerateIngestKey, setAutoLive, toggleIngestKeyShown } from '../../actions/ingest.ts';
import { Button } from '../../components/Button.tsx';
import { Disclosure } from '../../components/Disclosure.tsx';
import { IconButton } from '../../components/IconButton.tsx';
import { Switch } from '../../components/Switch.tsx';
import { Tooltip } from '../../components/Tooltip.tsx';
import { ingestStatusLine } from '../../model/ingest.ts';
import { useDestinationsStore, useIngestStore } from '../../stores/index.ts';
import { ConsoleGuideModal } from './ConsoleGuideModal.tsx';
import styles from './AutoLive.module.css';

/**
 * The Auto Live block (spec §2): the toggle (disabled without an enabled Twitch destination,
 * 'Twitch required') and the feed's state; folded below them, the ingest's address and key for
 * encoders, the console address, and the Xbox and PlayStation guides.
 */
export function AutoLiveBlock({ projectId }: { projectId: string }) {
  useEffect(() => {
    void loadIngest(projectId);
    return () => closeIngest();
  }, [projectId]);
  const status = useIngestStore((s) => s.status);
  const view = useIngestStore((s) => s.view);
  const error = useIngestStore((s) => s.error);
  const keyShown = useIngestStore((s) => s.keyShown);
  const regenerating = useIngestStore((s) => s.regenerating);
  const switching = useIngestStore((s) => s.switching);
  // The destinations list is live (toggles in any tab): it decides whether Auto Live may be switched on.
  const twitchEnabled = useDestinationsStore((s) => s.destinations.some((d) => d.type === 'Twitch' && d.enabled));
  const now = useNow(view?.status.state === 'dropped');
  if (status === 'error') return <p className={styles.error}>{error}</p>;
  if (!view) return null;
  const line = ingestStatusLine(view.status, view.feed, view.autoLive, now);
  const canSwitch = view.autoLive || twitchEnabled;
  const toggle = <Switch label="Auto Live" checked={view.autoLive} disabled={!canSwitch || switching} onCheckedChange={(on) => void setAutoLive(on)} />;
  return (
    <section className={styles.block} aria-label="Auto Live">
      <div className={styles.headingRow}>
        <h2 className={styles.heading}>Auto Live</h2>
        {canSwitch ? (
          toggle
        ) : (
          <Tooltip content={TWITCH_REQUIRED_TOOLTIP}>
            <span tabIndex={0}>{toggle}</span>
          </Tooltip>
        )}
      </div>
      <p className={styles.status} role="status" aria-label="Ingest status">
        <span className={styles.light} data-light={line.light} aria-hidden />
        {line.text}
      </p>
      {/* Set up once in an encoder or console: folded away so the side column keeps its room. */}
      <Disclosure label="Encoder and console settings">
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
      </Disclosure>
      <ConsoleGuideModal />
    </section>
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
