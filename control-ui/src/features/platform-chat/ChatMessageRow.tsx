import { AlertCircle, Check, Loader2 } from 'lucide-react';
import { destinationKinds, type ChatDestinationEntry, type ChatMessage, type ChatSegment } from '@onair/protocol';
import { onRowClick, OnScreenToggle, useCanShowChatOnScreen, useIsOnScreen } from '../chat-on-screen/OnScreen.tsx';
import { PlatformIcon } from './PlatformIcon.tsx';
import styles from './PlatformChat.module.css';

/** Only http(s) addresses ever reach an href or a src (the protocol refuses others too). */
function webAddress(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : null;
  } catch {
    return null;
  }
}

/** A message's parts as React text, images and links: never HTML, never fetched but for images. */
function Segment({ segment }: { segment: ChatSegment }) {
  if (segment.kind === 'emoticon') {
    const src = webAddress(segment.url);
    return src ? (
      <img className={styles.emote} src={src} alt={segment.value} title={segment.value} loading="lazy" referrerPolicy="no-referrer" />
    ) : (
      <>{segment.value}</>
    );
  }
  if (segment.kind === 'link') {
    const href = webAddress(segment.href);
    return href ? (
      <a className={styles.link} href={href} target="_blank" rel="noopener noreferrer nofollow">
        {segment.value}
      </a>
    ) : (
      <>{segment.value}</>
    );
  }
  return <>{segment.value}</>;
}

function time(ts: string): string {
  return new Date(ts).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

export function ChatMessageRow({ message, destinations }: { message: ChatMessage; destinations: ChatDestinationEntry[] }) {
  const avatar = message.avatar ? webAddress(message.avatar) : null;
  const nameOf = (id: string) => {
    const d = destinations.find((x) => x.id === id);
    return d ? (d.platform ? destinationKinds[d.variant].label : d.name) : 'A removed destination';
  };
  // Any message but a whisper can go on screen.
  const showable = useCanShowChatOnScreen() && !message.private;
  const onScreen = useIsOnScreen(message.id);
  return (
    <li
      className={[styles.message, message.direction === 'outbound' ? styles.outbound : ''].join(' ')}
      data-message-id={message.id}
      data-testid="chat-message"
      data-showable={showable}
      data-on-screen={onScreen}
      onClick={onRowClick('platform', message.id, showable)}
    >
      <div className={styles.avatar} aria-hidden>
        {avatar ? <img src={avatar} alt="" referrerPolicy="no-referrer" /> : <span>{Array.from(message.displayName)[0]?.toUpperCase() ?? '?'}</span>}
      </div>
      <div className={styles.body}>
        <div className={styles.meta}>
          {message.platform && <PlatformIcon platform={message.platform} />}
          <span className={styles.name}>{message.displayName}</span>
          {message.private && <span className={styles.whisper}>whisper</span>}
          <time className={styles.time} dateTime={message.ts}>
            {time(message.ts)}
          </time>
          {showable && (
            // Off screen the button floats over the row's end; the one on screen keeps its badge in the line, readable.
            <span className={onScreen ? undefined : styles.rowToggle}>
              <OnScreenToggle kind="platform" messageId={message.id} />
            </span>
          )}
        </div>
        <p className={styles.text}>
          {message.segments.map((segment, i) => (
            <Segment key={i} segment={segment} />
          ))}
        </p>
        {message.direction === 'outbound' && (
          <ul className={styles.deliveries} aria-label="Sent to">
            {message.deliveries.map((d) => (
              <li key={d.destinationId} className={styles[d.state]} data-delivery={d.state}>
                {d.state === 'pending' && <Loader2 size={12} className={styles.spin} aria-hidden />}
                {d.state === 'sent' && <Check size={12} aria-hidden />}
                {d.state === 'failed' && <AlertCircle size={12} aria-hidden />}
                <span>{`${nameOf(d.destinationId)}${d.state === 'pending' ? ': sending…' : d.state === 'failed' ? `: ${d.error ?? 'not sent'}` : ''}`}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </li>
  );
}
