import { formatEventTime, type LiveEvent } from '@onair/protocol';
import { PlatformIcon } from '../platform-chat/PlatformIcon.tsx';
import { detailOf, kindOf } from './event-kinds.tsx';
import styles from './Events.module.css';

/** Only http(s) addresses ever reach a src. */
function webAddress(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : null;
  } catch {
    return null;
  }
}

/**
 * Spec §2: a row with the event name, its coloured icon, the avatar, the user name, the platform
 * icon and §9's relative time; gift details and the message (emotes as pictures) under it. Every
 * text from a platform is React text, never HTML.
 */
export function EventRow({ event, now }: { event: LiveEvent; now: Date }) {
  const kind = kindOf(event);
  const avatar = webAddress(event.avatar);
  const detail = detailOf(event);
  const parts = event.data.parsedMessage ?? (event.data.message ? [{ kind: 'text' as const, value: event.data.message }] : []);
  return (
    <li className={styles.row} data-testid="event-row" data-type={event.type} data-event-id={event.id}>
      <span
        className={styles.typeIcon}
        style={{ color: kind.color, background: `color-mix(in srgb, ${kind.color} 18%, transparent)` }}
        data-testid="event-icon"
        data-color={kind.color}
        aria-hidden
      >
        {kind.icon(16)}
      </span>
      <div className={styles.avatar} aria-hidden>
        {avatar ? <img src={avatar} alt="" referrerPolicy="no-referrer" /> : <span>{Array.from(event.platformUsername)[0]?.toUpperCase() ?? '?'}</span>}
      </div>
      <div className={styles.body}>
        <div className={styles.meta}>
          <span className={styles.eventName} style={{ color: kind.color }}>
            {kind.name}
          </span>
          {event.platform !== 'onair' && <PlatformIcon platform={event.platform} />}
          <time className={styles.time} dateTime={event.platformCreatedAt} title={new Date(event.platformCreatedAt).toLocaleString()}>
            {formatEventTime(event.platformCreatedAt, now)}
          </time>
        </div>
        <p className={styles.user} data-testid="event-user">
          {event.platformUsername}
        </p>
        {detail && <p className={styles.detail}>{detail}</p>}
        {parts.length > 0 && (
          <p className={styles.message}>
            {parts.map((part, i) => {
              if (part.kind === 'emote') {
                const src = webAddress(part.url);
                return src ? (
                  <img key={i} className={styles.emote} src={src} alt={part.value} title={part.value} loading="lazy" referrerPolicy="no-referrer" />
                ) : (
                  <span key={i}>{part.value}</span>
                );
              }
              return <span key={i}>{part.value}</span>;
            })}
          </p>
        )}
      </div>
    </li>
  );
}
