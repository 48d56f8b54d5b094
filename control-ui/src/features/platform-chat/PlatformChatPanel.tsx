import { ArrowDown, MessageSquare } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { CHAT_STICK_TO_BOTTOM_PX, hasPermission } from '@onair/protocol';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Button } from '../../components/Button.tsx';
import { authenticateDestination } from '../../actions/destinations.ts';
import { setChatViewing } from '../../actions/platform-chat.ts';
import { useChatStore, useStudioStore } from '../../stores/index.ts';
import { OnScreenBar } from '../chat-on-screen/OnScreen.tsx';
import { ChatComposer } from './ChatComposer.tsx';
import { ChatFilterBar } from './ChatFilterBar.tsx';
import { ChatMessageRow } from './ChatMessageRow.tsx';
import styles from './PlatformChat.module.css';

/**
 * Spec §2 Platform chat panel: every destination's chat in one list (platform icon, avatar, name,
 * emotes, links), the filter bar with All, and the message box with its To selector. The list
 * sticks to the bottom while the reader is within 10 px of it; scrolled up, it stays put and offers
 * a way back down. Mounted only while its tab is shown, which is what clears the unread marker.
 */
/**
 * What the panel says while it has no message to show. Without a chat platform among the
 * destinations there is no chat to start, live or not (a broadcast to a custom RTMP server only).
 */
export function chatEmptyState(loaded: boolean, live: boolean, chatDestinations: number): { title: string; text: string } {
  if (!loaded) return { title: live ? 'No chat messages yet' : 'Start the stream to use the chat', text: 'Loading the chat…' };
  if (chatDestinations === 0) return { title: 'No platform chat', text: 'Add a Twitch, YouTube or Facebook destination to read its chat here.' };
  if (live) return { title: 'No chat messages yet', text: 'Messages from your platforms appear here as they are written.' };
  return { title: 'Start the stream to use the chat', text: 'Chat from your destinations appears here while you are live.' };
}

export function PlatformChatPanel() {
  const live = useChatStore((s) => s.live);
  const destinations = useChatStore((s) => s.destinations);
  const messages = useChatStore((s) => s.messages);
  const filter = useChatStore((s) => s.filter);
  const targets = useChatStore((s) => s.targets);
  const draft = useChatStore((s) => s.draft);
  const sendError = useChatStore((s) => s.sendError);
  const loaded = useChatStore((s) => s.loaded);
  // Writing speaks with the channel's accounts: the roles that manage the broadcast (the server checks again).
  const canWrite = hasPermission(
    useStudioStore((s) => s.project?.role),
    'manage broadcast',
  );
  // What stops a chat is said live or not when the creator must act (sign in again); the rest only while live.
  const noticed = destinations.filter((d) => d.error && (live || d.state === 'unsupported' || d.state === 'needsSignIn'));
  const emptyChat = chatEmptyState(loaded, live, destinations.length);
  const list = useRef<HTMLOListElement>(null);
  const stick = useRef(true);
  const [below, setBelow] = useState(false);

  useEffect(() => {
    setChatViewing(true);
    return () => setChatViewing(false);
  }, []);

  const shown =
    filter === null
      ? messages
      : messages.filter((m) => (m.destinationId ? filter.includes(m.destinationId) : m.toDestinations.some((id) => filter.includes(id))));

  useLayoutEffect(() => {
    const el = list.current;
    if (!el) return;
    if (stick.current) el.scrollTop = el.scrollHeight;
    else setBelow(true);
  }, [shown.length, shown[shown.length - 1]]);

  const onScroll = () => {
    const el = list.current;
    if (!el) return;
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight <= CHAT_STICK_TO_BOTTOM_PX;
    if (stick.current) setBelow(false);
  };

  const toBottom = () => {
    const el = list.current;
    if (!el) return;
    stick.current = true;
    el.scrollTop = el.scrollHeight;
    setBelow(false);
  };

  return (
    <section className={styles.panel} aria-label="Platform chat">
      {/* The filters and the on-screen duration share one line: the messages get the height. */}
      {(destinations.length > 0 || shown.length > 0) && (
        <div className={styles.toolbar}>
          {destinations.length > 0 && <ChatFilterBar destinations={destinations} filter={filter} />}
          {shown.length > 0 && <OnScreenBar inline />}
        </div>
      )}
      {noticed.length > 0 && (
        <ul className={styles.notices} aria-label="Chat status">
          {noticed.map((d) => (
            <li key={d.id} data-state={d.state}>
              <span>{d.state === 'unsupported' ? d.error : `${d.name}: ${d.error}`}</span>
              {d.state === 'needsSignIn' && canWrite && (
                // The Connect flow of the destination: its popup, the platform's consent, back here.
                <Button variant="primary" onClick={() => authenticateDestination(d.id)}>
                  Reconnect
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className={styles.listWrap}>
        {shown.length === 0 ? (
          <div className={styles.empty}>
            <EmptyState icon={<MessageSquare size={24} />} title={emptyChat.title}>
              <p>{emptyChat.text}</p>
            </EmptyState>
          </div>
        ) : (
          <ol ref={list} className={styles.list} onScroll={onScroll} aria-label="Chat messages" aria-live="polite">
            {shown.map((m) => (
              <ChatMessageRow key={m.id} message={m} destinations={destinations} />
            ))}
          </ol>
        )}
        {below && (
          <Button className={styles.jump} variant="secondary" onClick={toBottom}>
            <ArrowDown size={14} aria-hidden /> New messages
          </Button>
        )}
      </div>
      {canWrite && (
        <ChatComposer destinations={destinations} targets={targets} draft={draft} live={live} sendError={sendError} showNotLive={shown.length > 0} />
      )}
    </section>
  );
}
