import { Pencil, Trash2 } from 'lucide-react';
import { canvasLabels, destinationKinds, needsSignInText, requiresAuthenticationText, TWITCH_REQUIRED_TOOLTIP, type DestinationView } from '@onair/protocol';
import { askRemoveDestination, authenticateDestination, startEditDestination, toggleDestination } from '../../actions/destinations.ts';
import { Button } from '../../components/Button.tsx';
import { IconButton } from '../../components/IconButton.tsx';
import { Switch } from '../../components/Switch.tsx';
import { Tooltip } from '../../components/Tooltip.tsx';
import { formatBitrate, healthLight, isTwitchRequired } from '../../model/destinations.ts';
import { useDestinationsStore } from '../../stores/index.ts';
import { LocalStreamAddress } from './LocalStream.tsx';
import styles from './Destinations.module.css';

const LIGHT_WORDS = { off: 'Off air', connecting: 'Connecting', live: 'Live', reconnecting: 'Reconnecting', failed: 'Failed' } as const;

export function DestinationRow({ destination }: { destination: DestinationView }) {
  const kind = destinationKinds[destination.type];
  // The one-machine stack's doubles stand in for this platform: no real account, the stream stays here.
  const testMode = useDestinationsStore((s) => s.picker?.tiles.some((t) => t.type === destination.type && t.testMode) ?? false);
  const output = useDestinationsStore((s) => s.health[destination.id]);
  const broadcastState = useDestinationsStore((s) => s.broadcast?.state);
  const onAir = broadcastState === 'starting' || broadcastState === 'live';
  const light = healthLight(destination, output, onAir);
  const required = useDestinationsStore((s) => isTwitchRequired(destination, s.destinations, s.autoLive));
  return (
    <li className={styles.row} data-testid="destination-row" data-destination-id={destination.id}>
      <div className={styles.rowMain}>
        <span className={styles.brand} style={{ background: kind.brandColor }} aria-hidden />
        <span className={styles.names}>
          <span className={styles.name}>{destination.name}</span>
          <span className={styles.kind}>
            {/* First on the line: seen even when the panel is too short for the warning under the row. */}
            {destination.needsSignIn && <span className={styles.needsSignIn}>Needs sign-in · </span>}
            {kind.label} · {destination.canvas === 'vertical' ? 'Vertical' : 'Horizontal'}
            {/* Last: when the line is cut, the panel's test-mode note still says it. */}
            {testMode && ' · test mode'}
          </span>
        </span>
        {required ? (
          // Spec §5: the console's game feed comes through this channel while Auto Live is on.
          <Tooltip content={TWITCH_REQUIRED_TOOLTIP}>
            <span tabIndex={0}>
              <Switch label="On" checked disabled onCheckedChange={() => undefined} />
            </span>
          </Tooltip>
        ) : (
          <Switch
            label={destination.enabled ? 'On' : 'Off'}
            checked={destination.enabled}
            onCheckedChange={(on) => void toggleDestination(destination.id, on)}
          />
        )}
        <IconButton label="Edit destination" icon={<Pencil size={16} />} onClick={() => void startEditDestination(destination.id)} />
        <IconButton
          label={required ? TWITCH_REQUIRED_TOOLTIP : 'Remove destination'}
          icon={<Trash2 size={16} />}
          disabled={required}
          onClick={() => askRemoveDestination(destination.id)}
        />
      </div>
      {destination.type === 'Local' && <LocalStreamAddress destination={destination} />}
      {onAir && destination.enabled && (
        <div className={styles.health} role="status" aria-label={`${destination.name} stream health`}>
          <span className={styles.light} data-light={light} aria-hidden />
          <span>{LIGHT_WORDS[light]}</span>
          <span data-testid="destination-canvas">{canvasLabels[destination.canvas]}</span>
          {output && <span>{formatBitrate(output.bitrateKbps)}</span>}
          {output && <span>{output.reconnects} reconnects</span>}
          {output?.reason && <span>{output.reason}</span>}
        </div>
      )}
      {!destination.authenticated &&
        (destination.needsSignIn ? (
          // Connected once, its access since revoked or expired: the same Connect flow signs in again.
          <div className={styles.warning} role="alert" data-testid="destination-needs-sign-in">
            <span className={styles.warningText}>
              <strong>Needs sign-in</strong>
              <span>{needsSignInText(destination.type)}</span>
            </span>
            <Button variant="primary" onClick={() => authenticateDestination(destination.id)}>
              Reconnect
            </Button>
          </div>
        ) : (
          // Spec §8: a persistent warning with Authenticate, gone when the authenticated event arrives.
          <div className={styles.warning} role="alert">
            <span>{requiresAuthenticationText(destination.type)}</span>
            <Button variant="primary" onClick={() => authenticateDestination(destination.id)}>
              Authenticate
            </Button>
          </div>
        ))}
    </li>
  );
}
