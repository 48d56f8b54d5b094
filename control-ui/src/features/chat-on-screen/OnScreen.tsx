import { MonitorUp, MonitorX } from 'lucide-react';
import type { MouseEvent } from 'react';
import { hasPermission, isChatOnAir, type ChatOnScreenKind } from '@onair/protocol';
import { setChatOnScreenDuration, takeChatOffScreen, toggleChatOnScreen } from '../../actions/chat-on-screen.ts';
import { Button } from '../../components/Button.tsx';
import { IconButton } from '../../components/IconButton.tsx';
import { Select } from '../../components/Select.tsx';
import { useChatOnScreenStore, useStudioStore, type OnScreenDuration } from '../../stores/index.ts';
import styles from './OnScreen.module.css';

/** Putting a message on screen edits the show: the roles that may update the project (the server checks again). */
export function useCanShowChatOnScreen(): boolean {
  const role = useStudioStore((s) => s.project?.role);
  const ready = useChatOnScreenStore((s) => s.projectId !== null);
  return ready && hasPermission(role, 'update project');
}

/** Whether this message is the one the program shows (or is about to: see useIsOnAir). */
export function useIsOnScreen(messageId: string): boolean {
  return useChatOnScreenStore((s) => s.onScreen?.messageId === messageId);
}

/** Whether the message on screen is drawn in the program now, as the session's pipeline reported. */
export function useIsOnAir(): boolean {
  return useChatOnScreenStore((s) => isChatOnAir(s.onScreen, s.onAir));
}

/**
 * A click anywhere on a message row puts it on screen or takes it off (links and buttons in the row
 * keep their own clicks); the row's button does the same from the keyboard.
 */
export function onRowClick(kind: ChatOnScreenKind, messageId: string, enabled: boolean) {
  return (event: MouseEvent<HTMLElement>) => {
    if (!enabled || (event.target as HTMLElement).closest('a, button, [role="button"]')) return;
    if (window.getSelection()?.toString()) return;
    void toggleChatOnScreen(kind, messageId);
  };
}

/** The row's button (an icon, named for what it does), and a badge while it is the one shown: On screen once the program has it. */
export function OnScreenToggle({ kind, messageId }: { kind: ChatOnScreenKind; messageId: string }) {
  const on = useIsOnScreen(messageId);
  const onAir = useIsOnAir();
  const busy = useChatOnScreenStore((s) => s.pending === messageId);
  return (
    <span className={styles.toggle} data-on={on}>
      {on && (
        <span className={styles.badge} data-testid="on-screen-badge" data-on-air={onAir}>
          {onAir ? 'On screen' : 'Showing…'}
        </span>
      )}
      <IconButton
        className={styles.button}
        label={on ? 'Take off screen' : 'Show on screen'}
        aria-pressed={on}
        disabled={busy}
        icon={on ? <MonitorX size={16} aria-hidden /> : <MonitorUp size={16} aria-hidden />}
        onClick={() => void toggleChatOnScreen(kind, messageId)}
      />
    </span>
  );
}

const DURATIONS: { value: string; label: string; duration: OnScreenDuration }[] = [
  { value: '10000', label: 'For 10 s', duration: 10_000 },
  { value: '15000', label: 'For 15 s', duration: 15_000 },
  { value: '30000', label: 'For 30 s', duration: 30_000 },
  { value: '60000', label: 'For 1 min', duration: 60_000 },
  { value: 'null', label: 'Until taken off', duration: null },
];

/**
 * Above a chat list, for those who may edit the show: what the program shows now (with a way to take
 * it off), or how to put a message there; and how long a message stays.
 */
export function OnScreenBar({ inline = false }: { inline?: boolean } = {}) {
  const canShow = useCanShowChatOnScreen();
  const onScreen = useChatOnScreenStore((s) => s.onScreen);
  const onAir = useIsOnAir();
  const duration = useChatOnScreenStore((s) => s.duration);
  const busy = useChatOnScreenStore((s) => s.pending !== null);
  if (!canShow) return null;
  return (
    <div className={inline ? `${styles.bar} ${styles.barInline}` : styles.bar} data-testid="on-screen-bar" data-on={onScreen !== null}>
      {/* Inline (beside the chat's filters, issue 52) the hint is read, not shown: the list keeps the room. */}
      <p className={inline && !onScreen ? styles.srOnly : styles.status} aria-live="polite">
        {onScreen ? (
          <>
            <span className={styles.dot} data-on-air={onAir} aria-hidden />
            <span className={styles.label}>{onAir ? 'On screen:' : 'Showing:'}</span> <span className={styles.who}>{onScreen.displayName}</span>
          </>
        ) : (
          'Click a message to show it on screen'
        )}
      </p>
      <div className={styles.duration} title="How long a message you click stays on screen">
        <Select
          aria-label="How long a message stays on screen"
          value={String(duration)}
          options={DURATIONS}
          onValueChange={(value) => setChatOnScreenDuration(DURATIONS.find((d) => d.value === value)?.duration ?? null)}
        />
      </div>
      {onScreen && (
        <Button variant="secondary" className={styles.barButton} disabled={busy} onClick={() => void takeChatOffScreen()}>
          Take off
        </Button>
      )}
    </div>
  );
}
