import { Send } from 'lucide-react';
import { useId, type KeyboardEvent } from 'react';
import { CHAT_MESSAGE_MAX, chatTextValid, type ChatDestinationEntry } from '@onair/protocol';
import { Button } from '../../components/Button.tsx';
import { Menu, MenuCheckboxItem, MenuItem, MenuSeparator } from '../../components/Menu.tsx';
import { sendChat, setChatDraft, setChatTargetsToAll, toggleChatTarget } from '../../actions/platform-chat.ts';
import { PlatformIcon } from './PlatformIcon.tsx';
import styles from './PlatformChat.module.css';
import { TextArea } from '../../components/FormField.tsx';

interface ComposerProps {
  destinations: ChatDestinationEntry[];
  targets: string[];
  draft: string;
  live: boolean;
  sendError: string | null;
  /** Say 'Start the stream to use the chat' here too (when the list above shows messages, not that). */
  showNotLive: boolean;
}

/**
 * Spec §5 message box: the To selector lists only chats that can send; the counter shows the
 * trimmed length against 200, the border turns red past it, and Enter sends (Shift+Enter is a new
 * line). Disabled with 'Start the stream to use the chat' while not live.
 */
export function ChatComposer({ destinations, targets, draft, live, sendError, showNotLive }: ComposerProps) {
  const inputId = useId();
  const errorId = useId();
  const sendable = destinations.filter((d) => d.canSend);
  const length = draft.trim().length;
  const over = length > CHAT_MESSAGE_MAX;
  const chosen = sendable.filter((d) => targets.includes(d.id));
  const toLabel =
    chosen.length === 0 ? 'Nobody' : chosen.length === sendable.length && sendable.length > 1 ? 'All chats' : chosen.map((d) => d.name).join(', ');
  const disabled = !live || sendable.length === 0;
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      sendChat();
    }
  };
  return (
    <div className={styles.composer}>
      {!live && showNotLive && <p className={styles.notice}>Start the stream to use the chat</p>}
      {live && sendable.length === 0 && <p className={styles.notice}>None of your chats can receive messages from the studio.</p>}
      {/* One line (issue 52): who it goes to, the box, its count once typed in, Send. */}
      <div className={styles.inputRow}>
        <span className={styles.toLabel}>To</span>
        <Menu
          label="Send to"
          trigger={
            <button type="button" className={styles.toTrigger} disabled={disabled} aria-label={`Send to: ${toLabel}`} title={toLabel}>
              {toLabel}
            </button>
          }
        >
          {sendable.map((d) => (
            <MenuCheckboxItem
              key={d.id}
              checked={targets.includes(d.id)}
              onCheckedChange={() => toggleChatTarget(d.id)}
              icon={d.platform ? <PlatformIcon platform={d.platform} /> : undefined}
            >
              {d.name}
            </MenuCheckboxItem>
          ))}
          {sendable.length > 1 && (
            <>
              <MenuSeparator />
              <MenuItem onSelect={setChatTargetsToAll}>All chats</MenuItem>
            </>
          )}
        </Menu>
        <TextArea
          id={inputId}
          className={[styles.input, over ? styles.invalid : ''].join(' ')}
          value={draft}
          rows={1}
          placeholder="Send a message"
          aria-label="Chat message"
          aria-invalid={over}
          aria-describedby={sendError ? errorId : undefined}
          disabled={disabled}
          onChange={(e) => setChatDraft(e.target.value)}
          onKeyDown={onKeyDown}
        />
        {length > 0 && (
          <span className={[styles.count, over ? styles.countOver : ''].join(' ')} aria-live="polite" data-testid="chat-counter">
            {length}/{CHAT_MESSAGE_MAX}
          </span>
        )}
        <Button variant="primary" aria-label="Send" disabled={disabled || !chatTextValid(draft) || chosen.length === 0} onClick={() => sendChat()}>
          <Send size={14} aria-hidden />
        </Button>
      </div>
      {sendError && (
        <p id={errorId} className={styles.sendError} role="alert">
          {sendError}
        </p>
      )}
    </div>
  );
}
