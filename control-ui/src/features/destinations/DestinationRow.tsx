import { ChevronDown, Pencil, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { canvasLabels, destinationKinds, needsSignInText, requiresAuthenticationText, TWITCH_REQUIRED_TOOLTIP, type DestinationView } from '@onair/protocol';
import { askRemoveDestination, authenticateDestination, startEditDestination, toggleDestination } from '../../actions/destinations.ts';
import { Button } from '../../components/Button.tsx';
import { IconButton } from '../../components/IconButton.tsx';
import { Switch } from '../../components/Switch.tsx';
import { Tooltip } from '../../components/Tooltip.tsx';
import { formatBitrate, healthLight, isTwitchRequired } from '../../model/destinations.ts';
import { compactStatus } from '../../model/live-panel.ts';
import { useDestinationsStore } from '../../stores/index.ts';
import { LocalStreamAddress } from './LocalStream.tsx';
import styles from './Destinations.module.css';

const LIGHT_WORDS = { off: 'Off air', connecting: 'Connecting', live: 'Live', reconnecting: 'Reconnecting', failed: 'Failed' } as const;

/**
 * One destination. Off air it is a set-up card (switch, edit, remove, its address or sign-in
 * warning). On air it is one line (name, status light, bitrate) so the chat below keeps the
 * column's height; an output's error gets a one-line row of its own with a Details disclosure, and
 * the rest (kind, canvas, reconnects, address, edit, remove) unfolds under the row on demand.
 */
export function DestinationRow({ destination }: { destination: DestinationView }) {
  const kind = destinationKinds[destination.type];
  // The one-machine stack's doubles stand in for this platform: no real account, the stream stays here.
  const testMode = useDestinationsStore((s) => s.picker?.tiles.some((t) => t.type === destination.type && t.testMode) ?? false);
  const output = useDestinationsStore((s) => s.health[destination.id]);
  const broadcastState = useDestinationsStore((s) => s.broadcast?.state);
  const onAir = broadcastState === 'starting' || broadcastState === 'live';
  const light = healthLight(destination, output, onAir);
  const required = useDestinationsStore((s) => isTwitchRequired(destination, s.destinations, s.autoLive));
  const [expanded, setExpanded] = useState(false);
  const [errorOpen, setErrorOpen] = useState(false);
  const detailsId = useId();
  const compact = onAir;
  const errorId = useId();
  const description = [
    kind.label,
    destination.canvas === 'vertical' ? 'Vertical' : 'Horizontal',
    ...(destination.needsSignIn ? ['Needs sign-in'] : []),
    ...(testMode ? ['test mode'] : []),
  ].join(' · ');
  const reason = onAir && destination.enabled ? (output?.reason ?? null) : null;

  const toggle = required ? (
    // Spec §5: the console's game feed comes through this channel while Auto Live is on.
    <Tooltip content={TWITCH_REQUIRED_TOOLTIP}>
      <span tabIndex={0}>
        <Switch label="On" checked disabled hideLabel={compact} onCheckedChange={() => undefined} />
      </span>
    </Tooltip>
  ) : (
    <Switch
      label={destination.enabled ? 'On' : 'Off'}
      checked={destination.enabled}
      hideLabel={compact}
      onCheckedChange={(on) => void toggleDestination(destination.id, on)}
    />
  );
  const editRemove = (
    <>
      <IconButton label="Edit destination" icon={<Pencil size={16} />} onClick={() => void startEditDestination(destination.id)} />
      <IconButton
        label={required ? TWITCH_REQUIRED_TOOLTIP : 'Remove destination'}
        icon={<Trash2 size={16} />}
        disabled={required}
        onClick={() => askRemoveDestination(destination.id)}
      />
    </>
  );
  const warning = !destination.authenticated && (
    <div className={styles.warning} role="alert" data-testid={destination.needsSignIn ? 'destination-needs-sign-in' : undefined}>
      {destination.needsSignIn ? (
        // Connected once, its access since revoked or expired: the same Connect flow signs in again.
        <span className={styles.warningText}>
          <strong>Needs sign-in</strong>
          <span>{needsSignInText(destination.type)}</span>
        </span>
      ) : (
        // Spec §8: a persistent warning with Authenticate, gone when the authenticated event arrives.
        <span className={styles.warningText}>{requiresAuthenticationText(destination.type)}</span>
      )}
      <Button variant="primary" onClick={() => authenticateDestination(destination.id)}>
        {destination.needsSignIn ? 'Reconnect' : 'Authenticate'}
      </Button>
    </div>
  );

  return (
    <li
      className={compact ? `${styles.row} ${styles.compactRow}` : styles.row}
      data-testid="destination-row"
      data-destination-id={destination.id}
      data-light={light}
    >
      <div className={styles.rowMain}>
        {/* On air the status light leads the line; the platform is in the name's hover text. */}
        {!compact && <span className={styles.brand} style={{ background: kind.brandColor }} aria-hidden />}
        {/* Cut to the column when long: the whole name (and its kind) is one hover away. */}
        <span className={styles.names} title={`${destination.name} (${description})`}>
          <span className={styles.name}>{destination.name}</span>
          {!compact && (
            <span className={styles.kind}>
              {/* First on the line: seen even when the panel is too short for the warning under the row. */}
              {destination.needsSignIn && <span className={styles.needsSignIn}>Needs sign-in · </span>}
              {kind.label} · {destination.canvas === 'vertical' ? 'Vertical' : 'Horizontal'}
              {testMode && ' · test mode'}
            </span>
          )}
        </span>
        {compact && destination.enabled && (
          <span className={styles.compactStatus} role="status" aria-label={`${destination.name} stream health`} title={LIGHT_WORDS[light]}>
            <span className={styles.light} data-light={light} aria-hidden />
            <span className={styles.srOnly}>
              {LIGHT_WORDS[light]}
              {output ? `, ${output.reconnects} reconnects` : ''}
            </span>
            <span aria-hidden={light !== 'live'}>{compactStatus(light, output)}</span>
          </span>
        )}
        {toggle}
        {compact ? (
          <IconButton
            className={styles.compactButton}
            label={expanded ? `Hide details of ${destination.name}` : `Show details of ${destination.name}`}
            icon={<ChevronDown size={16} className={expanded ? styles.chevronOpen : styles.chevron} />}
            aria-expanded={expanded}
            aria-controls={detailsId}
            onClick={() => setExpanded(!expanded)}
          />
        ) : (
          editRemove
        )}
      </div>
      {reason && (
        <div className={styles.errorLine} role="alert" data-testid="destination-error">
          <span id={errorId} className={errorOpen ? styles.errorTextOpen : styles.errorText} title={reason}>
            {reason}
          </span>
          <button
            type="button"
            className={styles.errorDetails}
            aria-expanded={errorOpen}
            aria-controls={errorId}
            onClick={(e) => {
              const line = e.currentTarget.parentElement;
              setErrorOpen(!errorOpen);
              // The list may be scrolled short: the whole error comes into view once unfolded.
              if (!errorOpen) requestAnimationFrame(() => line?.scrollIntoView({ block: 'nearest' }));
            }}
          >
            {errorOpen ? 'Less' : 'Details'}
          </button>
        </div>
      )}
      {compact ? (
        <>
          {!destination.authenticated && !expanded && (
            <p className={styles.errorLine} role="alert">
              <span
                className={styles.errorText}
                title={destination.needsSignIn ? needsSignInText(destination.type) : requiresAuthenticationText(destination.type)}
              >
                {destination.needsSignIn ? 'Needs sign-in' : requiresAuthenticationText(destination.type)}
              </span>
            </p>
          )}
          <div id={detailsId} className={styles.details} hidden={!expanded}>
            <p className={styles.detailsLine}>{description}</p>
            {destination.enabled && (
              <p className={styles.detailsLine} data-testid="destination-health-details">
                {LIGHT_WORDS[light]} · <span data-testid="destination-canvas">{canvasLabels[destination.canvas]}</span>
                {output && ` · ${formatBitrate(output.bitrateKbps)} · ${output.reconnects} reconnects`}
              </p>
            )}
            {expanded && destination.type === 'Local' && <LocalStreamAddress destination={destination} />}
            {warning}
            <div className={styles.detailsActions}>{editRemove}</div>
          </div>
        </>
      ) : (
        <>
          {destination.type === 'Local' && <LocalStreamAddress destination={destination} />}
          {warning}
        </>
      )}
    </li>
  );
}
