import { MessagesSquare, Send } from 'lucide-react';
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { chatDraftState, GUEST_CHAT_MAX, linkSegments, type GuestChatMessage } from '@onair/protocol';
import { sendGuestChat, setGuestChatViewed } from '../../actions/guest-chat.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { IconButton } from '../../components/IconButton.tsx';
import { useGuestsStore } from '../../stores/index.ts';
import { onRowClick, OnScreenBar, OnScreenToggle, useCanShowChatOnScreen, useIsOnScreen } from '../chat-on-screen/OnScreen.tsx';
import styles from './GuestChat.module.css';
import { TextArea } from '../../components/FormField.tsx';

/** Spec §9: the chat sticks to the bottom while the reader is within 10 px of it. */
const STICK_TO_BOTTOM_PX = 10;

/**
 * Guest Chat (spec §2 side panel tab): everyone in the room, host, co-hosts and guests. Messages are
 * rendered as text; words that look like links become links (§5), never markup. Showing the panel
 * marks the chat read (§4 "Chat").
 */
export function GuestChat() {
  const chat = useGuestsStore((s) => s.chat);
  const error = useGuestsStore((s) => s.chatError);
  const list = useRef<HTMLOListElement>(null);
  const atBottom = useRef(true);
  useEffect(() => {
    setGuestChatViewed(true);
    return () => setGuestChatViewed(false);
  }, []);
  useLayoutEffect(() => {
    const element = list.current;
    if (element && atBottom.current) element.scrollTop = element.scrollHeight;
  }, [chat]);
  return (
    <div className={styles.chat}>
      <div className={styles.thread}>
        {chat.length > 0 && <OnScreenBar />}
        {chat.length === 0 ? (
          <EmptyState icon={<MessagesSquare size={28} />} title="No messages yet">
            <p>Messages between the host and the guests appear here.</p>
          </EmptyState>
        ) : (
          <ol
            ref={list}
            className={styles.messages}
            aria-label="Guest Chat messages"
            onScroll={(e) => {
              const el = e.currentTarget;
              atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight <= STICK_TO_BOTTOM_PX;
            }}
          >
            {chat.map((message) => (
              <ChatLine key={message.id} message={message} />
            ))}
          </ol>
        )}
      </div>
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
      <ChatInput />
    </div>
  );
}

function ChatLine({ message }: { message: GuestChatMessage }) {
  const time = new Date(message.timestamp).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  // In the studio, a host puts a message of the room on screen as one of a platform's.
  const showable = useCanShowChatOnScreen();
  const onScreen = useIsOnScreen(message.id);
  return (
    <li
      className={styles.message}
      data-testid="guest-chat-message"
      data-showable={showable}
      data-on-screen={onScreen}
      onClick={onRowClick('guest', message.id, showable)}
    >
      <div className={styles.meta}>
        <span className={styles.sender}>{message.displayName}</span>
        {message.role !== 'guest' && <span className={styles.role}>{message.role}</span>}
        <time dateTime={message.timestamp}>{time}</time>
        {showable && <OnScreenToggle kind="guest" messageId={message.id} />}
      </div>
      <p className={styles.content}>
        {linkSegments(message.content).map((segment, i) =>
          segment.kind === 'link' ? (
            <a key={i} href={segment.href} target="_blank" rel="noopener noreferrer nofollow">
              {segment.value}
            </a>
          ) : (
            <span key={i}>{segment.value}</span>
          ),
        )}
      </p>
    </li>
  );
}

/** Spec §5: 1 to 200 characters after trimming, a counter, a red border over the limit, Enter sends. */
function ChatInput() {
  const [draft, setDraft] = useState('');
  const sending = useGuestsStore((s) => s.sending);
  const id = useId();
  const { length, sendable, over } = chatDraftState(draft);
  const send = async () => {
    if (!sendable || sending) return;
    if (await sendGuestChat(draft.trim())) setDraft('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void send();
    }
  };
  return (
    <div className={styles.composer}>
      <label htmlFor={id} className={styles.srOnly}>
        Message to the room
      </label>
      <TextArea
        id={id}
        className={styles.input}
        data-invalid={over}
        aria-invalid={over}
        rows={1}
        placeholder="Message the room"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <span className={styles.counter} data-over={over} aria-live="polite">
        {length}/{GUEST_CHAT_MAX}
      </span>
      <IconButton label="Send message" icon={<Send size={16} />} disabled={!sendable || sending} onClick={() => void send()} />
    </div>
  );
}
