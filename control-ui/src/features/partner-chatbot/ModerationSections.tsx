import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import {
  chatbotPermissionLabels,
  chatbotPermissionLevels,
  durationUnits,
  filterPunishmentLabels,
  filterPunishments,
  POINTS_INTERVALS,
  type ChatbotFilterName,
  type ChatbotFilters,
  type ChatbotLoyalty,
  type WarningLevel,
} from '@onair/protocol';
import { removeChatbotItem, saveChatbotItem, saveChatbotSection, type ChatbotListName } from '../../actions/partner-chatbot.ts';
import { Button } from '../../components/Button.tsx';
import { IconButton } from '../../components/IconButton.tsx';
import { Switch } from '../../components/Switch.tsx';
import styles from '../partner-home/Partner.module.css';
import bot from './Chatbot.module.css';
import type { SectionProps } from './ChatSections.tsx';
import { ChoiceField, NumberField, SaveRow, TextField } from './fields.tsx';
import { useSave } from './use-save.ts';

const punishmentOptions = filterPunishments.map((p) => ({ value: p, label: filterPunishmentLabels[p] }));
const unitOptions = durationUnits.map((u) => ({ value: u, label: u }));

/** A list of Twitch usernames (regulars, ignored users). */
function UserList({
  channelId,
  list,
  users,
  canEdit,
  what,
}: {
  channelId: string;
  list: ChatbotListName;
  users: SectionProps['config']['regulars'];
  canEdit: boolean;
  what: string;
}) {
  const [name, setName] = useState('');
  const save = useSave();
  return (
    <div className={styles.stack}>
      {users.length === 0 ? <p className={styles.muted}>No {what} yet.</p> : null}
      <div className={styles.badges}>
        {users.map((u) => (
          <span key={u.id} className={styles.badge}>
            {u.username}{' '}
            <IconButton
              label={`Remove ${u.username}`}
              disabled={!canEdit}
              onClick={() => void save.run(() => removeChatbotItem(channelId, list, u.id))}
              icon={<Trash2 size={12} aria-hidden />}
            />
          </span>
        ))}
      </div>
      <div className={styles.form}>
        <TextField label="Twitch username" value={name} onChange={setName} max={41} disabled={!canEdit} />
      </div>
      <SaveRow
        label="Add"
        onSave={() => void save.run(() => saveChatbotItem(channelId, list, { username: name, platform: 'twitch' })).then((ok) => ok && setName(''))}
        busy={save.busy}
        error={save.error}
        disabled={!canEdit}
      />
    </div>
  );
}

/** Moderation: warning levels (timeout or ban), warning expiry, the hate-raid guard, ignored users. */
export function ModerationSection({ channelId, config, canEdit }: SectionProps) {
  const [levels, setLevels] = useState<WarningLevel[]>(config.warningLevels);
  const [moderation, setModeration] = useState(config.moderation);
  const saveLevels = useSave();
  const saveModeration = useSave();
  const guard = moderation.hateRaidGuard;
  const setGuard = (patch: Partial<typeof guard>) => setModeration({ ...moderation, hateRaidGuard: { ...guard, ...patch } });
  return (
    <div className={styles.stack}>
      <h3 className={styles.cardTitle}>Warning levels</h3>
      <p className={styles.muted}>
        A filter with “notice and warning” counts warnings; at a level the viewer is timed out or banned. Twitch times out for at most 14 days.
      </p>
      {levels.map((l, i) => (
        <div key={i} className={bot.row}>
          <NumberField
            label="After warnings"
            value={l.warnings}
            min={1}
            max={100}
            onChange={(warnings) => setLevels(levels.map((x, j) => (j === i ? { ...x, warnings } : x)))}
            disabled={!canEdit}
          />
          <ChoiceField
            label="Action"
            value={l.action}
            options={[
              { value: 'timeout', label: 'Timeout' },
              { value: 'ban', label: 'Permanent ban' },
            ]}
            onChange={(a) => setLevels(levels.map((x, j) => (j === i ? { ...x, action: a as WarningLevel['action'] } : x)))}
            disabled={!canEdit}
          />
          {l.action === 'timeout' ? (
            <>
              <NumberField
                label="Duration"
                value={l.duration}
                min={1}
                onChange={(duration) => setLevels(levels.map((x, j) => (j === i ? { ...x, duration } : x)))}
                disabled={!canEdit}
              />
              <ChoiceField
                label="Unit"
                value={l.unit}
                options={unitOptions}
                onChange={(u) => setLevels(levels.map((x, j) => (j === i ? { ...x, unit: u as WarningLevel['unit'] } : x)))}
                disabled={!canEdit}
              />
            </>
          ) : (
            <Button variant="ghost" disabled={!canEdit} onClick={() => setLevels(levels.filter((_, j) => j !== i))}>
              Remove level
            </Button>
          )}
        </div>
      ))}
      <SaveRow
        onSave={() => void saveLevels.run(() => saveChatbotSection(channelId, 'warning-levels', { levels }))}
        busy={saveLevels.busy}
        error={saveLevels.error}
        disabled={!canEdit}
        label="Save warning levels"
      >
        <Button
          variant="ghost"
          disabled={!canEdit || levels.length >= 10}
          onClick={() => setLevels([...levels, { warnings: (levels.at(-1)?.warnings ?? 0) + 1, action: 'timeout', duration: 10, unit: 'minutes' }])}
        >
          Add a level
        </Button>
      </SaveRow>

      <div className={styles.subsection}>
        <h3 className={styles.cardTitle}>Hate-raid guard</h3>
        <p className={styles.muted}>
          When many first-time chatters write at once, the chat goes follower-only and slow for a while and everything they wrote is removed.
        </p>
        <Switch label="Guard against hate raids" checked={guard.enabled} disabled={!canEdit} onCheckedChange={(enabled) => setGuard({ enabled })} />
        <div className={bot.row}>
          <ChoiceField
            label="Watch for a flood"
            value={guard.armOn}
            options={[
              { value: 'raid', label: 'Only after a raid' },
              { value: 'raidOrBurst', label: 'At any time' },
            ]}
            onChange={(v) => setGuard({ armOn: v as typeof guard.armOn })}
            disabled={!canEdit}
          />
          <NumberField
            label="After a raid, for (minutes)"
            value={guard.raidWindowMinutes}
            min={1}
            max={60}
            onChange={(v) => setGuard({ raidWindowMinutes: v })}
            disabled={!canEdit}
          />
        </div>
        <div className={bot.row}>
          <NumberField
            label="First-time chatters"
            value={guard.firstTimeChatters}
            min={3}
            max={1000}
            onChange={(v) => setGuard({ firstTimeChatters: v })}
            disabled={!canEdit}
          />
          <NumberField
            label="Within (seconds)"
            value={guard.windowSeconds}
            min={5}
            max={600}
            onChange={(v) => setGuard({ windowSeconds: v })}
            disabled={!canEdit}
          />
          <NumberField
            label="Follower-only (followed minutes)"
            value={guard.followerOnlyMinutes}
            min={0}
            onChange={(v) => setGuard({ followerOnlyMinutes: v })}
            disabled={!canEdit}
          />
          <NumberField
            label="For (minutes)"
            value={guard.durationMinutes}
            min={1}
            max={240}
            onChange={(v) => setGuard({ durationMinutes: v })}
            disabled={!canEdit}
          />
        </div>
        <NumberField
          label="Forget warnings after (hours)"
          value={moderation.warningsExpireHours}
          min={1}
          onChange={(v) => setModeration({ ...moderation, warningsExpireHours: v })}
          disabled={!canEdit}
        />
        <SaveRow
          onSave={() => void saveModeration.run(() => saveChatbotSection(channelId, 'moderation', moderation))}
          busy={saveModeration.busy}
          error={saveModeration.error}
          disabled={!canEdit}
        />
      </div>
      <div className={styles.subsection}>
        <h3 className={styles.cardTitle}>Ignored users</h3>
        <p className={styles.muted}>The bot neither answers nor filters them (other bots, for instance).</p>
        <UserList channelId={channelId} list="ignored-users" users={config.ignoredUsers} canEdit={canEdit} what="ignored users" />
      </div>
    </div>
  );
}

const filterTitles: Record<ChatbotFilterName, { title: string; lead: string }> = {
  duplicates: { title: 'Duplicates', lead: 'The same message again from the same viewer.' },
  emotes: { title: 'Emotes', lead: 'Too many emotes in one message.' },
  links: { title: 'Links', lead: 'Links outside the allowed domains, unless a moderator used !permit.' },
  symbols: { title: 'Symbols', lead: 'Messages made mostly of symbols.' },
  caps: { title: 'Uppercase', lead: 'Shouting. Emotes do not count as capitals.' },
  bannedWords: { title: 'Banned words', lead: 'Words or patterns (one per line; RE2 syntax, no backreferences).' },
};

/** Chat Filters (spec §3): each with its switch, punishment and settings. */
export function FiltersSection({ channelId, config, canEdit }: SectionProps) {
  const [filters, setFilters] = useState<ChatbotFilters>(config.filters);
  const [patterns, setPatterns] = useState(config.filters.bannedWords.patterns.join('\n'));
  const save = useSave();
  const set = <K extends ChatbotFilterName>(name: K, patch: Partial<ChatbotFilters[K]>) => setFilters({ ...filters, [name]: { ...filters[name], ...patch } });
  const extra = (name: ChatbotFilterName) => {
    switch (name) {
      case 'duplicates':
        return (
          <NumberField
            label="Within (seconds)"
            value={filters.duplicates.windowSeconds}
            min={5}
            max={3600}
            onChange={(v) => set('duplicates', { windowSeconds: v })}
            disabled={!canEdit}
          />
        );
      case 'emotes':
        return (
          <NumberField
            label="Most emotes"
            value={filters.emotes.maxCount}
            min={1}
            max={200}
            onChange={(v) => set('emotes', { maxCount: v })}
            disabled={!canEdit}
          />
        );
      case 'links':
        return (
          <>
            <TextField
              label="Allowed domains, one per line"
              multiline
              value={filters.links.whitelist}
              onChange={(whitelist) => set('links', { whitelist })}
              disabled={!canEdit}
            />
            <NumberField
              label="!permit lasts (seconds)"
              value={filters.links.permitSeconds}
              min={10}
              max={3600}
              onChange={(v) => set('links', { permitSeconds: v })}
              disabled={!canEdit}
            />
          </>
        );
      case 'symbols':
      case 'caps':
        return (
          <>
            <NumberField
              label="From percent"
              value={filters[name].minPercent}
              min={1}
              max={100}
              onChange={(v) => set(name, { minPercent: v })}
              disabled={!canEdit}
            />
            <NumberField
              label="In messages of at least (characters)"
              value={filters[name].minLength}
              min={1}
              max={500}
              onChange={(v) => set(name, { minLength: v })}
              disabled={!canEdit}
            />
          </>
        );
      case 'bannedWords':
        return <TextField label="Banned words" multiline value={patterns} onChange={setPatterns} disabled={!canEdit} />;
    }
  };
  const names = Object.keys(filterTitles) as ChatbotFilterName[];
  return (
    <div className={styles.stack}>
      <ChoiceField
        label="Who the filters spare (and everyone above)"
        value={filters.exemptLevel}
        options={chatbotPermissionLevels.map((p) => ({ value: p, label: chatbotPermissionLabels[p] }))}
        onChange={(v) => setFilters({ ...filters, exemptLevel: v as ChatbotFilters['exemptLevel'] })}
        disabled={!canEdit}
      />
      {names.map((name) => (
        <div key={name} className={bot.filter}>
          <div className={bot.filterHead}>
            <div className={styles.itemMain}>
              <span className={styles.itemTitle}>{filterTitles[name].title}</span>
              <span className={styles.muted}>{filterTitles[name].lead}</span>
            </div>
            <Switch label="On" checked={filters[name].enabled} disabled={!canEdit} onCheckedChange={(enabled) => set(name, { enabled })} />
          </div>
          <div className={styles.form}>
            <ChoiceField
              label="Punishment"
              value={filters[name].punishment}
              options={punishmentOptions}
              onChange={(p) => set(name, { punishment: p as ChatbotFilters[typeof name]['punishment'] })}
              disabled={!canEdit}
            />
            {extra(name)}
          </div>
        </div>
      ))}
      <SaveRow
        onSave={() =>
          void save.run(() =>
            saveChatbotSection(channelId, 'filters', {
              ...filters,
              bannedWords: {
                ...filters.bannedWords,
                patterns: patterns
                  .split('\n')
                  .map((p) => p.trim())
                  .filter((p) => p !== ''),
              },
            }),
          )
        }
        busy={save.busy}
        error={save.error}
        disabled={!canEdit}
      />
    </div>
  );
}

const programs: { value: ChatbotLoyalty['program']; label: string }[] = [
  { value: 'none', label: 'None' },
  { value: 'regulars', label: 'Regulars' },
  { value: 'ranks', label: 'Ranks (hours watched)' },
  { value: 'points', label: 'Points' },
];
const intervalOptions = POINTS_INTERVALS.map((n) => ({ value: String(n), label: n === 60 ? 'Every hour' : `Every ${n} minutes` }));

/** Loyalty (spec §3): the program, its points, ranks and regulars. */
export function LoyaltySection({ channelId, config, canEdit }: SectionProps) {
  const [loyalty, setLoyalty] = useState(config.loyalty);
  const [ranks, setRanks] = useState(config.ranks);
  const save = useSave();
  const saveRanks = useSave();
  const points = loyalty.points;
  const setPoints = (patch: Partial<typeof points>) => setLoyalty({ ...loyalty, points: { ...points, ...patch } });
  const earning = (key: 'whileChatting' | 'whileViewing' | 'whileOffline', label: string) => (
    <div className={bot.row}>
      <Switch
        label={label}
        checked={points[key].enabled}
        disabled={!canEdit}
        onCheckedChange={(enabled) => setPoints({ [key]: { ...points[key], enabled } })}
      />
      <NumberField
        label="Points"
        value={points[key].amount}
        min={0}
        onChange={(amount) => setPoints({ [key]: { ...points[key], amount } })}
        disabled={!canEdit}
      />
      <ChoiceField
        label="How often"
        value={String(points[key].intervalMinutes)}
        options={intervalOptions}
        onChange={(v) => setPoints({ [key]: { ...points[key], intervalMinutes: Number(v) as 5 } })}
        disabled={!canEdit}
      />
    </div>
  );
  return (
    <div className={styles.stack}>
      <ChoiceField
        label="Loyalty program"
        value={loyalty.program}
        options={programs}
        onChange={(v) => setLoyalty({ ...loyalty, program: v as ChatbotLoyalty['program'] })}
        disabled={!canEdit}
      />
      {loyalty.program === 'points' ? (
        <>
          <div className={styles.form}>
            <TextField label="Points name" value={points.name} max={64} onChange={(name) => setPoints({ name })} disabled={!canEdit} />
            <NumberField
              label="Subscriber multiplier"
              value={points.subscriberMultiplier}
              min={1}
              max={10}
              step={0.5}
              onChange={(subscriberMultiplier) => setPoints({ subscriberMultiplier })}
              disabled={!canEdit}
            />
          </div>
          {earning('whileViewing', 'Earn while viewing')}
          {earning('whileChatting', 'Earn while chatting')}
          {earning('whileOffline', 'Earn while viewing offline')}
          <h3 className={styles.cardTitle}>Event rewards</h3>
          <div className={bot.row}>
            {(Object.keys(points.rewards) as (keyof typeof points.rewards)[]).map((k) => (
              <NumberField
                key={k}
                label={k.replace(/([A-Z])/g, ' $1').replace(/^./, (c) => c.toUpperCase())}
                value={points.rewards[k]}
                min={0}
                onChange={(v) => setPoints({ rewards: { ...points.rewards, [k]: v } })}
                disabled={!canEdit}
              />
            ))}
          </div>
        </>
      ) : null}
      {loyalty.program === 'regulars' ? (
        <>
          <Switch
            label="Make viewers regulars by themselves"
            checked={loyalty.regulars.autoPromote}
            disabled={!canEdit}
            onCheckedChange={(autoPromote) => setLoyalty({ ...loyalty, regulars: { ...loyalty.regulars, autoPromote } })}
          />
          <div className={bot.row}>
            <NumberField
              label="Hours watched live"
              value={loyalty.regulars.hoursWatched}
              min={1}
              onChange={(hoursWatched) => setLoyalty({ ...loyalty, regulars: { ...loyalty.regulars, hoursWatched } })}
              disabled={!canEdit || !loyalty.regulars.autoPromote}
            />
          </div>
        </>
      ) : null}
      <SaveRow onSave={() => void save.run(() => saveChatbotSection(channelId, 'loyalty', loyalty))} busy={save.busy} error={save.error} disabled={!canEdit} />
      <div className={styles.subsection}>
        <h3 className={styles.cardTitle}>Ranks</h3>
        {ranks.map((r, i) => (
          <div key={i} className={bot.row}>
            <TextField
              label="Rank"
              value={r.name}
              max={64}
              onChange={(name) => setRanks(ranks.map((x, j) => (j === i ? { ...x, name } : x)))}
              disabled={!canEdit}
            />
            <NumberField
              label="Hours watched"
              value={r.hoursWatched}
              min={0}
              onChange={(hoursWatched) => setRanks(ranks.map((x, j) => (j === i ? { ...x, hoursWatched } : x)))}
              disabled={!canEdit}
            />
            <Button variant="ghost" disabled={!canEdit} onClick={() => setRanks(ranks.filter((_, j) => j !== i))}>
              Remove
            </Button>
          </div>
        ))}
        <SaveRow
          onSave={() => void saveRanks.run(() => saveChatbotSection(channelId, 'ranks', { ranks }))}
          busy={saveRanks.busy}
          error={saveRanks.error}
          disabled={!canEdit}
          label="Save ranks"
        >
          <Button variant="ghost" disabled={!canEdit} onClick={() => setRanks([...ranks, { name: '', hoursWatched: (ranks.at(-1)?.hoursWatched ?? 0) + 10 }])}>
            Add a rank
          </Button>
        </SaveRow>
      </div>
      <div className={styles.subsection}>
        <h3 className={styles.cardTitle}>Regulars</h3>
        <p className={styles.muted}>Commands can be limited to Regulars; regulars may also add quotes.</p>
        <UserList channelId={channelId} list="regulars" users={config.regulars} canEdit={canEdit} what="regulars" />
      </div>
    </div>
  );
}
