import { Camera, Gamepad2, Globe, ImageOff, MonitorUp, UserRound } from 'lucide-react';
import type { ReactNode } from 'react';
import styles from './SourcePlaceholder.module.css';

/** The placeholders of spec §2, shown where a source has no picture. */
export const PLACEHOLDER_TEXT = {
  camera: 'Camera Offline',
  guest: 'Waiting for guest',
  screenshare: 'Screenshare Offline',
  game: 'Game Source Offline',
  browser: 'Browser Source',
  unavailable: 'Preview unavailable',
} as const;

const ICONS: Record<keyof typeof PLACEHOLDER_TEXT, ReactNode> = {
  camera: <Camera size={20} aria-hidden />,
  guest: <UserRound size={20} aria-hidden />,
  screenshare: <MonitorUp size={20} aria-hidden />,
  game: <Gamepad2 size={20} aria-hidden />,
  browser: <Globe size={20} aria-hidden />,
  unavailable: <ImageOff size={20} aria-hidden />,
};

/**
 * `detail` is one line (a name, an address); `reason` is a sentence saying why, wrapped to a few
 * lines; `text` replaces the offline words for a source whose media only the program shows (a game feed).
 */
export function SourcePlaceholder({ kind, detail, reason, text }: { kind: keyof typeof PLACEHOLDER_TEXT; detail?: string; reason?: string; text?: string }) {
  return (
    <div className={styles.placeholder}>
      {ICONS[kind]}
      <span className={styles.text}>{text ?? PLACEHOLDER_TEXT[kind]}</span>
      {detail && <span className={styles.detail}>{detail}</span>}
      {reason && (
        <span className={styles.reason} title={reason}>
          {reason}
        </span>
      )}
    </div>
  );
}
