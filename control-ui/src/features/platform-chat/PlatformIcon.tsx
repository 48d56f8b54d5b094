import { CHAT_SENDER_MARKS, type ChatPlatform } from '@onair/protocol';
import styles from './PlatformChat.module.css';

export const PLATFORM_LABELS: Record<ChatPlatform, string> = {
  twitch: CHAT_SENDER_MARKS.twitch.label,
  youtube: CHAT_SENDER_MARKS.youtube.label,
  facebook: CHAT_SENDER_MARKS.facebook.label,
};

export function PlatformIcon({ platform, size = 14 }: { platform: ChatPlatform; size?: number }) {
  // Each platform's mark, drawn in its brand colour (spec §3 palette).
  const glyph = CHAT_SENDER_MARKS[platform];
  return (
    <svg
      className={styles.platformIcon}
      data-platform={platform}
      role="img"
      aria-label={PLATFORM_LABELS[platform]}
      width={size}
      height={size}
      viewBox="0 0 24 24"
    >
      <path fill={glyph.color} d={glyph.path} />
    </svg>
  );
}
