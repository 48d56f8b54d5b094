import { useEffect, useState } from 'react';
import { RAFFLE_DURATION_MINUTES, RAFFLE_ENTRIES_MAX, RAFFLE_LUCK_MAX, type Raffle } from '@onair/protocol';
import { closeRaffle, loadRaffles, openRaffle } from '../../actions/partner-chatbot.ts';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Table } from '../../components/Table.tsx';
import { useChatbotStore } from '../../stores/index.ts';
import styles from '../partner-home/Partner.module.css';
import bot from './Chatbot.module.css';
import type { SectionProps } from './ChatSections.tsx';
import { NumberField, SaveRow, TextField } from './fields.tsx';
import { useSave } from './use-save.ts';

interface Draft {
  keyword: string;
  entryCost: number;
  subscriberLuck: number;
  maxEntriesPerViewer: number;
  durationMinutes: number;
}
const emptyDraft: Draft = { keyword: '!raffle', entryCost: 0, subscriberLuck: 1, maxEntriesPerViewer: 1, durationMinutes: 5 };

const statusWords: Record<Raffle['status'], string> = { open: 'Running', drawn: 'Drawn', cancelled: 'Cancelled' };
const time = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The giveaway running now: who entered so far, and the creator's draw and cancel. */
function Running({ channelId, raffle, canEdit, pointsName }: { channelId: string; raffle: Raffle; canEdit: boolean; pointsName: string }) {
  const save = useSave();
  return (
    <section className={styles.subsection} aria-label="Running giveaway">
      <h3 className={styles.cardTitle}>
        Running: <span className={bot.mono}>{raffle.keyword}</span>
      </h3>
      <p className={styles.muted}>
        {raffle.entrants} {raffle.entrants === 1 ? 'viewer has' : 'viewers have'} entered ({raffle.tickets} {raffle.tickets === 1 ? 'ticket' : 'tickets'}).{' '}
        {raffle.entryCost > 0 ? `A ticket costs ${raffle.entryCost} ${pointsName}. ` : ''}The winner is drawn at {time(raffle.closesAt)}.
      </p>
      <SaveRow
        label="Draw the winner now"
        onSave={() => void save.run(() => closeRaffle(channelId, raffle.id, 'draw'))}
        busy={save.busy}
        error={save.error}
        disabled={!canEdit}
      >
        <Button variant="ghost" disabled={!canEdit || save.busy} onClick={() => void save.run(() => closeRaffle(channelId, raffle.id, 'cancel'))}>
          Cancel the giveaway
        </Button>
      </SaveRow>
    </section>
  );
}

/**
 * Giveaways (issue 40): the creator opens one (keyword, ticket cost in points, subscribers' luck,
 * tickets per viewer, duration); viewers enter by writing the keyword in chat; the bot draws the
 * winner at the end (or when asked), announces it and pays the Loyalty › Points raffle-win reward.
 */
export function GiveawaysSection({ channelId, config, canEdit }: SectionProps) {
  const raffles = useChatbotStore((s) => s.raffles);
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const save = useSave();
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  useEffect(() => {
    void loadRaffles(channelId);
    // Entries come in from chat: read them again while the page is open.
    const timer = setInterval(() => void loadRaffles(channelId), 3000);
    return () => clearInterval(timer);
  }, [channelId]);
  const running = raffles?.find((r) => r.status === 'open') ?? null;
  const past = raffles?.filter((r) => r.status !== 'open') ?? [];
  const points = config.loyalty.program === 'points';
  const pointsName = config.loyalty.points.name;
  return (
    <div className={styles.stack}>
      {running ? (
        <Running channelId={channelId} raffle={running} canEdit={canEdit} pointsName={pointsName} />
      ) : (
        <div className={styles.subsection} aria-label="New giveaway">
          <h3 className={styles.cardTitle}>New giveaway</h3>
          <p className={styles.muted}>
            Viewers enter by writing the keyword in chat. The winner is drawn at random when the time is up
            {points ? ` and wins the raffle-win reward of Loyalty (${config.loyalty.points.rewards.raffleWin} ${pointsName})` : ''}. A subscriber’s ticket
            counts as many times as the subscriber luck.{points ? '' : ' Tickets are free unless the Points program is on.'}
          </p>
          <div className={bot.row}>
            <TextField label="Keyword" value={draft.keyword} max={32} onChange={(keyword) => set({ keyword })} disabled={!canEdit} />
            <NumberField
              label="Duration (minutes)"
              value={draft.durationMinutes}
              min={RAFFLE_DURATION_MINUTES.min}
              max={RAFFLE_DURATION_MINUTES.max}
              onChange={(durationMinutes) => set({ durationMinutes })}
              disabled={!canEdit}
            />
            <NumberField
              label={`Ticket cost (${pointsName})`}
              value={draft.entryCost}
              min={0}
              onChange={(entryCost) => set({ entryCost })}
              disabled={!canEdit}
            />
            <NumberField
              label="Subscriber luck"
              value={draft.subscriberLuck}
              min={1}
              max={RAFFLE_LUCK_MAX}
              onChange={(subscriberLuck) => set({ subscriberLuck })}
              disabled={!canEdit}
            />
            <NumberField
              label="Tickets per viewer"
              value={draft.maxEntriesPerViewer}
              min={1}
              max={RAFFLE_ENTRIES_MAX}
              onChange={(maxEntriesPerViewer) => set({ maxEntriesPerViewer })}
              disabled={!canEdit}
            />
          </div>
          <SaveRow
            label="Start the giveaway"
            onSave={() => void save.run(() => openRaffle(channelId, draft)).then((ok) => ok && setDraft(emptyDraft))}
            busy={save.busy}
            error={save.error}
            disabled={!canEdit || config.connection.health === 'disabled'}
          />
          {config.connection.health === 'disabled' ? <p className={styles.hint}>Turn the chatbot on to run a giveaway in your chat.</p> : null}
        </div>
      )}
      <h3 className={styles.cardTitle}>Past giveaways</h3>
      {past.length === 0 ? (
        <EmptyState title="No giveaways yet">The giveaways you run are listed here with their winners.</EmptyState>
      ) : (
        <Table
          aria-label="Past giveaways"
          rows={past}
          rowKey={(r) => r.id}
          columns={[
            { key: 'when', header: 'Started', cell: (r) => time(r.openedAt) },
            { key: 'keyword', header: 'Keyword', cell: (r) => r.keyword, className: bot.mono },
            { key: 'entrants', header: 'Entered', cell: (r) => r.entrants },
            { key: 'status', header: 'Result', cell: (r) => statusWords[r.status] },
            { key: 'winner', header: 'Winner', cell: (r) => (r.winner ? `${r.winner.login}${r.winner.points > 0 ? ` (+${r.winner.points})` : ''}` : '—') },
          ]}
        />
      )}
    </div>
  );
}
