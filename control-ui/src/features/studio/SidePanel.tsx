import type { ReactNode } from 'react';
import { Tabs, type TabDefinition } from '../../components/Tabs.tsx';
import { GuestChat } from '../guests/GuestChat.tsx';
import { GuestsPanel } from '../guests/GuestsPanel.tsx';
import { PlatformChatPanel } from '../platform-chat/PlatformChatPanel.tsx';
import { EventsPanel } from '../events/EventsPanel.tsx';
import { EventsPopoutHost } from '../events/EventsPopout.tsx';
import { useChatStore, useGuestsStore } from '../../stores/index.ts';
import styles from './SidePanel.module.css';

export type SidePanelTab = 'platform-chat' | 'event-list' | 'guests' | 'guest-chat';

const PANELS: Record<SidePanelTab, { label: string; panel: ReactNode }> = {
  'platform-chat': {
    label: 'Platform Chat',
    panel: <PlatformChatPanel />,
  },
  'event-list': {
    label: 'Event List',
    panel: <EventsPanel />,
  },
  guests: {
    label: 'Guests',
    panel: <GuestsPanel />,
  },
  'guest-chat': {
    label: 'Guest Chat',
    panel: <GuestChat />,
  },
};

const ALL_TABS: readonly SidePanelTab[] = ['platform-chat', 'event-list', 'guests', 'guest-chat'];

export interface SidePanelProps {
  /** Spec §2: the panel can be limited to a subset of tabs… */
  tabs?: readonly SidePanelTab[];
  /** …and open on a given one; Platform Chat by default. */
  initialTab?: SidePanelTab;
}

export function SidePanel({ tabs = ALL_TABS, initialTab = 'platform-chat' }: SidePanelProps) {
  // Spec §4: unread is set when newer chat messages arrive while the chat is not viewed.
  const chatUnread = useChatStore((s) => s.unread);
  const guestChatUnread = useGuestsStore((s) => s.unread);
  const badgeOf = (id: SidePanelTab) =>
    id === 'platform-chat' && chatUnread ? { badge: 'New chat messages' } : id === 'guest-chat' && guestChatUnread ? { badge: 'Unread messages' } : {};
  const definitions: TabDefinition<SidePanelTab>[] = tabs.map((id) => ({ id, ...PANELS[id], ...badgeOf(id) }));
  const firstTab = tabs.includes(initialTab) ? initialTab : (tabs[0] ?? initialTab);
  return (
    <aside className={styles.panel} aria-label="Side panel">
      <Tabs label="Side panel" tabs={definitions} initialTab={firstTab} />
      {/* The events feed's popout window lives with the studio, whichever tab is shown. */}
      <EventsPopoutHost />
    </aside>
  );
}
