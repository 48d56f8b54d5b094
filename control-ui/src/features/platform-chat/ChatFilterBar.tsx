import type { ChatDestinationEntry } from '@onair/protocol';
import { showAllChats, toggleChatFilter } from '../../actions/platform-chat.ts';
import { PlatformIcon } from './PlatformIcon.tsx';
import styles from './PlatformChat.module.css';

const STATE_WORDS: Record<ChatDestinationEntry['state'], string> = {
  connecting: 'connecting',
  live: 'live',
  reconnecting: 'reconnecting',
  offline: 'offline',
  unsupported: 'coming soon',
  needsSignIn: 'needs sign-in',
};

/** Spec §5: one toggle per chat (at least one stays on), and All to show every chat again. */
export function ChatFilterBar({ destinations, filter }: { destinations: ChatDestinationEntry[]; filter: string[] | null }) {
  return (
    <div className={styles.filterBar} role="toolbar" aria-label="Show chats">
      <button type="button" className={styles.chip} aria-pressed={filter === null} onClick={showAllChats}>
        All
      </button>
      {destinations.map((d) => {
        const shown = filter === null || filter.includes(d.id);
        return (
          <button
            key={d.id}
            type="button"
            className={styles.chip}
            aria-pressed={shown}
            data-state={d.state}
            data-testid={`chat-filter-${d.id}`}
            title={d.error ?? `${d.name}: ${STATE_WORDS[d.state]}`}
            onClick={() => toggleChatFilter(d.id)}
          >
            {d.platform && <PlatformIcon platform={d.platform} />}
            <span className={styles.chipName}>{d.name}</span>
            <span className={styles.state} data-state={d.state}>
              {STATE_WORDS[d.state]}
            </span>
          </button>
        );
      })}
    </div>
  );
}
