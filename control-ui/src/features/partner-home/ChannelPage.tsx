import { BarChart3 } from 'lucide-react';
import { useEffect } from 'react';
import { loadChannel } from '../../actions/partner.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Table } from '../../components/Table.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { formatDuration } from '../../model/partner.ts';
import { usePartnerStore } from '../../stores/index.ts';
import { ChannelEvents } from './ChannelEvents.tsx';
import { PermissionBadges } from './PermissionBadges.tsx';
import styles from './Partner.module.css';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function StreamStats() {
  const streams = usePartnerStore((s) => s.streams);
  const error = usePartnerStore((s) => s.streamsError);
  if (error)
    return (
      <p role="alert" className={styles.muted}>
        {error}
      </p>
    );
  if (!streams) return null;
  if (streams.length === 0) {
    return (
      <EmptyState icon={<BarChart3 size={32} />} title="No streams yet">
        Streams gone live from the studio appear here with their length.
      </EmptyState>
    );
  }
  return (
    <Table
      aria-label="Streams"
      rows={streams}
      rowKey={(s) => s.id}
      columns={[
        { key: 'project', header: 'Project', cell: (s) => s.projectName },
        { key: 'started', header: 'Started', cell: (s) => when(s.startedAt) },
        { key: 'length', header: 'Length', cell: (s) => (s.endedAt ? formatDuration(s.durationSeconds) : `Live for ${formatDuration(s.durationSeconds)}`) },
      ]}
    />
  );
}

/** Partner spec §2 Channel: the selected channel, with each area shown as the server allows. */
export function ChannelPage() {
  useDocumentTitle('Channel');
  const selected = usePartnerStore((s) => s.selectedChannelId);
  const status = usePartnerStore((s) => s.channelStatus);
  const channel = usePartnerStore((s) => s.channel);
  const error = usePartnerStore((s) => s.channelError);
  useEffect(() => {
    if (selected) void loadChannel(selected);
  }, [selected]);
  if (status === 'failed') return <EmptyState title="This channel cannot be opened">{error}</EmptyState>;
  if (!channel) return null;
  return (
    <div className={styles.narrow}>
      <h1 className={styles.title}>{channel.name}</h1>
      <div className={styles.lead}>{channel.owner ? 'Your channel.' : <PermissionBadges groups={channel.permissions} />}</div>
      <section className={styles.card} aria-label="Analytics">
        <h2 className={styles.cardTitle}>Analytics · Stream stats</h2>
        <StreamStats />
      </section>
      {(channel.owner || channel.permissions.includes('analytics')) && <ChannelEvents channelId={channel.id} />}
    </div>
  );
}
