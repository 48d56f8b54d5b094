import { Inbox, RefreshCw } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import type { CapturedMessage } from '@onair/protocol';
import { loadDevInbox } from '../actions/account.ts';
import { Button } from '../components/Button.tsx';
import { EmptyState } from '../components/EmptyState.tsx';
import { useDocumentTitle } from '../hooks/use-document-title.ts';
import page from '../styles/Page.module.css';
import styles from './DevInboxPage.module.css';

/** Links in a captured message become clickable, so a magic link is one click away. */
function Linkified({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/\S+)/g);
  return (
    <p className={styles.text}>
      {parts.map((part, i) =>
        /^https?:\/\//.test(part) ? (
          <a key={i} href={part}>
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </p>
  );
}

/**
 * Development only: the mail and SMS this server kept instead of sending (no SMTP configured), so
 * a newcomer can sign in without a mail server.
 */
export function DevInboxPage() {
  useDocumentTitle('Development inbox');
  const [messages, setMessages] = useState<CapturedMessage[] | null | undefined>(undefined);
  const refresh = useCallback(() => void loadDevInbox().then(setMessages), []);
  useEffect(() => {
    refresh();
    const timer = setInterval(refresh, 3000);
    return () => clearInterval(timer);
  }, [refresh]);
  return (
    <div className={page.page}>
      <header className={page.header}>
        <div>
          <h1 className={page.title}>Development inbox</h1>
          <p className={page.subtitle}>Mail and SMS this server keeps instead of sending. Newest first.</p>
        </div>
        <div className={styles.toolbar}>
          <Button onClick={refresh}>
            <RefreshCw size={16} aria-hidden />
            Refresh
          </Button>
        </div>
      </header>
      <section className={page.card} aria-label="Messages">
        {messages === null && (
          <EmptyState icon={<Inbox size={36} />} title="The development inbox is off">
            <p>This server sends real mail, so nothing is kept here.</p>
          </EmptyState>
        )}
        {messages?.length === 0 && (
          <EmptyState icon={<Inbox size={36} />} title="No messages yet">
            <p>Sign-in codes and links you ask for appear here.</p>
          </EmptyState>
        )}
        {messages && messages.length > 0 && (
          <ol className={styles.list}>
            {messages.map((m) => (
              <li key={m.id} className={styles.message} aria-label={`${m.channel === 'sms' ? 'SMS' : 'E-mail'} to ${m.to}`}>
                <div className={styles.meta}>
                  <span>
                    {m.channel === 'sms' ? 'SMS' : 'E-mail'} to {m.to}
                  </span>
                  <time dateTime={m.sentAt}>{new Date(m.sentAt).toLocaleTimeString()}</time>
                </div>
                {m.channel === 'email' && <span className={styles.subject}>{m.subject}</span>}
                <Linkified text={m.text} />
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
