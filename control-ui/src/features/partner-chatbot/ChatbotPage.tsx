import { Bot } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Navigate, NavLink, useParams } from 'react-router';
import type { ChatbotHealth, PermissionGroup } from '@onair/protocol';
import { loadChatbot, setChatbotEnabled } from '../../actions/partner-chatbot.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Switch } from '../../components/Switch.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { useChatbotStore, usePartnerStore } from '../../stores/index.ts';
import styles from '../partner-home/Partner.module.css';
import settings from '../partner-settings/SettingsPage.module.css';
import bot from './Chatbot.module.css';
import { AlertsSection, CommandsSection, ExtrasSection, LinkPreviewSection, QuotesSection, TimersSection, type SectionProps } from './ChatSections.tsx';
import { GiveawaysSection } from './GiveawaysSection.tsx';
import { FiltersSection, LoyaltySection, ModerationSection } from './ModerationSections.tsx';

/** Partner spec §2 Chatbot sections, in the spec's order, with the group that edits each (§6). */
const sections = [
  { id: 'moderation', title: 'Moderation', lead: 'Warning levels, the hate-raid guard and users the bot ignores.', group: 'chatbot.moderation' },
  { id: 'alerts', title: 'Alerts', lead: 'What the bot says in chat when someone follows, subscribes, raids or cheers.', group: 'chatbot.chat' },
  { id: 'timers', title: 'Timers', lead: 'Messages the bot posts by itself, taking turns.', group: 'chatbot.chat' },
  { id: 'commands', title: 'Commands', lead: 'What the bot answers when a viewer types a command.', group: 'chatbot.chat' },
  { id: 'loyalty', title: 'Loyalty', lead: 'Reward the viewers who stay: regulars, ranks by hours watched, or points.', group: 'chatbot.loyalty' },
  {
    id: 'giveaways',
    title: 'Giveaways',
    lead: 'Raffles in chat: viewers enter with a keyword, the bot draws and announces the winner.',
    group: 'chatbot.loyalty',
  },
  { id: 'quotes', title: 'Quotes', lead: 'Memorable lines of your streams, numbered and dated.', group: 'chatbot.chat' },
  { id: 'link-preview', title: 'Link Preview', lead: 'The title and site of links posted in chat.', group: 'chatbot.chat' },
  { id: 'chat-filters', title: 'Chat Filters', lead: 'What the bot removes from chat, and how it tells the viewer.', group: 'chatbot.moderation' },
  { id: 'extras', title: 'Extras', lead: 'Built-in commands.', group: 'chatbot.chat' },
] as const satisfies readonly { id: string; title: string; lead: string; group: PermissionGroup }[];
type SectionId = (typeof sections)[number]['id'];

const healthWords: Record<ChatbotHealth, string> = {
  healthy: 'Connected',
  unhealthy: 'Not working',
  pending: 'Connecting',
  duplicate: 'Already running elsewhere',
  disabled: 'Off',
  unknown: 'Unknown',
};

function SectionBody({ id, ...props }: SectionProps & { id: SectionId }) {
  switch (id) {
    case 'moderation':
      return <ModerationSection {...props} />;
    case 'alerts':
      return <AlertsSection {...props} />;
    case 'timers':
      return <TimersSection {...props} />;
    case 'commands':
      return <CommandsSection {...props} />;
    case 'loyalty':
      return <LoyaltySection {...props} />;
    case 'giveaways':
      return <GiveawaysSection {...props} />;
    case 'quotes':
      return <QuotesSection {...props} />;
    case 'link-preview':
      return <LinkPreviewSection {...props} />;
    case 'chat-filters':
      return <FiltersSection {...props} />;
    case 'extras':
      return <ExtrasSection {...props} />;
  }
}

/** The bot's connection (spec §4 health) and its switch; only the channel owner turns it on or off. */
function Connection({ channelId, owner }: { channelId: string; owner: boolean }) {
  const connection = useChatbotStore((s) => s.config?.connection);
  const [error, setError] = useState<string | null>(null);
  if (!connection) return null;
  return (
    <section className={styles.card} aria-label="Chatbot connection">
      <div className={bot.health}>
        <div className={styles.itemMain}>
          <span className={bot.healthState}>
            <span className={`${bot.dot} ${bot[connection.health] ?? ''}`} aria-hidden />
            {healthWords[connection.health]}
            {connection.twitchLogin ? <span className={styles.muted}> · twitch.tv/{connection.twitchLogin}</span> : null}
          </span>
          {connection.reason ? <span className={styles.muted}>{connection.reason}</span> : null}
        </div>
        <Switch
          label="Chatbot on"
          checked={connection.enabled}
          disabled={!owner}
          onCheckedChange={(enabled) => {
            setError(null);
            void setChatbotEnabled(channelId, enabled).then((r) => !r.ok && setError(r.message));
          }}
        />
      </div>
      {connection.notices.map((notice) => (
        <p key={notice} className={bot.notice}>
          {notice}
        </p>
      ))}
      {error ? (
        <p role="alert" className={styles.formError}>
          {error}
        </p>
      ) : null}
      <p className={styles.hint}>
        The chatbot works in Twitch chat only. Make the bot a moderator of your channel so it can remove messages and time viewers out.
      </p>
    </section>
  );
}

export function ChatbotPage() {
  const { section } = useParams();
  const current = sections.find((s) => s.id === section);
  useDocumentTitle(current ? `Chatbot · ${current.title}` : 'Chatbot');
  const channelId = usePartnerStore((s) => s.selectedChannelId);
  const channel = usePartnerStore((s) => s.channels.find((c) => c.id === s.selectedChannelId));
  const status = useChatbotStore((s) => s.status);
  const config = useChatbotStore((s) => s.config);
  const error = useChatbotStore((s) => s.error);
  useEffect(() => {
    if (!channelId) return;
    void loadChatbot(channelId);
    // The health changes as the bot connects: read it again now and then while the page is open.
    const timer = setInterval(() => void loadChatbot(channelId), 5000);
    return () => clearInterval(timer);
  }, [channelId]);
  if (!current) return <Navigate to="/partner/chatbot/commands" replace />;
  if (!channelId || !channel) return null;
  if (status === 'failed') return <EmptyState title="The chatbot cannot be opened">{error}</EmptyState>;
  const canEdit = channel.owner || channel.permissions.includes(current.group);
  return (
    <div className={settings.settings}>
      <nav className={settings.sections} aria-label="Chatbot sections">
        <h1 className={styles.title}>Chatbot</h1>
        {sections.map((s) => (
          <NavLink key={s.id} to={`/partner/chatbot/${s.id}`} className={({ isActive }) => `${styles.navLink} ${isActive ? styles.navLinkActive : ''}`}>
            {s.title}
          </NavLink>
        ))}
      </nav>
      <div>
        <Connection channelId={channelId} owner={channel.owner} />
        {config ? (
          <section className={styles.card} aria-labelledby="chatbot-section-title">
            <div>
              <h2 id="chatbot-section-title" className={styles.cardTitle}>
                {current.title}
              </h2>
              <p className={styles.muted}>{current.lead}</p>
              {!canEdit ? (
                <p className={styles.hint}>Your access to this channel does not include editing this section. Ask the channel owner to grant it.</p>
              ) : null}
            </div>
            <SectionBody key={`${channelId}:${current.id}`} id={current.id} channelId={channelId} config={config} canEdit={canEdit} />
          </section>
        ) : (
          <EmptyState icon={<Bot size={32} />} title="Loading the chatbot…" />
        )}
      </div>
    </div>
  );
}
