import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import {
  alertEventTypeNames,
  alertEventTypes,
  ALERT_VARIABLES,
  CHATBOT_COMMAND_NAME_MAX,
  CHATBOT_MESSAGE_MAX,
  CHATBOT_QUOTE_AUTHOR_MAX,
  CHATBOT_TEXT_MAX,
  chatbotPermissionLabels,
  chatbotPermissionLevels,
  COMMAND_VARIABLES,
  type ChatbotCommand,
  type ChatbotConfig,
} from '@onair/protocol';
import { removeChatbotItem, saveChatbotItem, saveChatbotSection } from '../../actions/partner-chatbot.ts';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Table } from '../../components/Table.tsx';
import { IconButton } from '../../components/IconButton.tsx';
import { Switch } from '../../components/Switch.tsx';
import styles from '../partner-home/Partner.module.css';
import bot from './Chatbot.module.css';
import { Check, ChoiceField, NumberField, SaveRow, TextField } from './fields.tsx';
import { useSave } from './use-save.ts';

export interface SectionProps {
  channelId: string;
  config: ChatbotConfig;
  /** Whether the caller's groups allow editing this section (the server checks it again). */
  canEdit: boolean;
}

const permissionOptions = chatbotPermissionLevels.map((p) => ({ value: p, label: chatbotPermissionLabels[p] }));

function RemoveButton({ label, onRemove, disabled }: { label: string; onRemove: () => void; disabled: boolean }) {
  return <IconButton label={label} onClick={onRemove} disabled={disabled} icon={<Trash2 size={16} aria-hidden />} />;
}

type CommandDraft = Omit<ChatbotCommand, 'id' | 'count' | 'platforms'>;
const emptyCommand: CommandDraft = {
  command: '',
  message: '',
  permission: 'everyone',
  replyToSender: false,
  description: '',
  pointCost: 0,
  globalCooldownSeconds: 5,
  userCooldownSeconds: 0,
  enabled: true,
};

/** Commands (spec §3): name, permission, message with variables, cooldowns, point cost. */
export function CommandsSection({ channelId, config, canEdit }: SectionProps) {
  const [draft, setDraft] = useState<CommandDraft>(emptyCommand);
  const [editing, setEditing] = useState<string | null>(null);
  const save = useSave();
  const set = (patch: Partial<CommandDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const submit = async () => {
    if (await save.run(() => saveChatbotItem(channelId, 'commands', { ...draft, platforms: ['twitch'] }, editing ?? undefined))) {
      setDraft(emptyCommand);
      setEditing(null);
    }
  };
  return (
    <div className={styles.stack}>
      {config.commands.length === 0 ? (
        <EmptyState title="No commands yet">Viewers type a command such as !discord in chat and the bot answers with its message.</EmptyState>
      ) : (
        <Table
          aria-label="Commands"
          rows={config.commands}
          rowKey={(c) => c.id}
          columns={[
            { key: 'command', header: 'Command', cell: (c) => c.command, className: bot.mono },
            { key: 'message', header: 'Message', cell: (c) => c.message, className: styles.quote },
            { key: 'who', header: 'Who', cell: (c) => chatbotPermissionLabels[c.permission] },
            { key: 'cooldown', header: 'Cooldown', cell: (c) => `${c.globalCooldownSeconds} s · ${c.userCooldownSeconds} s each` },
            { key: 'cost', header: 'Cost', cell: (c) => c.pointCost || '—' },
            { key: 'used', header: 'Used', cell: (c) => c.count },
            {
              key: 'actions',
              header: <span className={styles.hiddenInput}>Actions</span>,
              cell: (c) => (
                <div className={styles.badges}>
                  <Button
                    variant="ghost"
                    disabled={!canEdit}
                    onClick={() => {
                      setEditing(c.id);
                      setDraft({
                        command: c.command,
                        message: c.message,
                        permission: c.permission,
                        replyToSender: c.replyToSender,
                        description: c.description,
                        pointCost: c.pointCost,
                        globalCooldownSeconds: c.globalCooldownSeconds,
                        userCooldownSeconds: c.userCooldownSeconds,
                        enabled: c.enabled,
                      });
                    }}
                  >
                    Edit
                  </Button>
                  <RemoveButton
                    label={`Remove ${c.command}`}
                    disabled={!canEdit}
                    onRemove={() => void save.run(() => removeChatbotItem(channelId, 'commands', c.id))}
                  />
                </div>
              ),
            },
          ]}
        />
      )}
      <div className={styles.subsection}>
        <h3 className={styles.cardTitle}>{editing ? 'Edit command' : 'Add a command'}</h3>
        <div className={styles.form}>
          <TextField
            label="Command"
            value={draft.command}
            onChange={(command) => set({ command })}
            max={CHATBOT_COMMAND_NAME_MAX}
            hint={`One word, at most ${CHATBOT_COMMAND_NAME_MAX} characters, e.g. !discord`}
            disabled={!canEdit}
          />
          <ChoiceField
            label="Who can use it"
            value={draft.permission}
            options={permissionOptions}
            onChange={(p) => set({ permission: p as CommandDraft['permission'] })}
            disabled={!canEdit}
          />
          <TextField
            className={styles.full}
            label="Message"
            multiline
            value={draft.message}
            onChange={(message) => set({ message })}
            max={CHATBOT_MESSAGE_MAX}
            hint={`At most ${CHATBOT_MESSAGE_MAX} characters. Variables: ${COMMAND_VARIABLES.map((v) => `{${v}}`).join(' ')}`}
            disabled={!canEdit}
          />
          <NumberField
            label="Cooldown for everyone (seconds)"
            value={draft.globalCooldownSeconds}
            min={0}
            max={86400}
            onChange={(v) => set({ globalCooldownSeconds: v })}
            disabled={!canEdit}
          />
          <NumberField
            label="Cooldown per viewer (seconds)"
            value={draft.userCooldownSeconds}
            min={0}
            max={86400}
            onChange={(v) => set({ userCooldownSeconds: v })}
            disabled={!canEdit}
          />
          <NumberField
            label="Point cost"
            value={draft.pointCost}
            min={0}
            onChange={(v) => set({ pointCost: v })}
            disabled={!canEdit}
            hint="Spent from the viewer's loyalty points (Points program)."
          />
          <TextField label="Description" value={draft.description} onChange={(description) => set({ description })} max={128} disabled={!canEdit} />
          <div className={`${styles.checks} ${styles.full}`}>
            <Check
              label="Start the answer with @username"
              checked={draft.replyToSender}
              onChange={(replyToSender) => set({ replyToSender })}
              disabled={!canEdit}
            />
            <Check label="On" checked={draft.enabled} onChange={(enabled) => set({ enabled })} disabled={!canEdit} />
          </div>
        </div>
        <SaveRow onSave={() => void submit()} busy={save.busy} error={save.error} disabled={!canEdit} label={editing ? 'Save command' : 'Add command'}>
          {editing ? (
            <Button
              variant="ghost"
              onClick={() => {
                setEditing(null);
                setDraft(emptyCommand);
              }}
            >
              Cancel
            </Button>
          ) : null}
        </SaveRow>
      </div>
    </div>
  );
}

/** Timers (spec §3 timed messages): taking turns every interval, while live, after enough chat. */
export function TimersSection({ channelId, config, canEdit }: SectionProps) {
  const [settings, setSettings] = useState(config.timerSettings);
  const [draft, setDraft] = useState({ name: '', message: '' });
  const save = useSave();
  const add = useSave();
  return (
    <div className={styles.stack}>
      <div className={bot.row}>
        <NumberField
          label="Every (minutes)"
          value={settings.intervalMinutes}
          min={1}
          max={180}
          onChange={(v) => setSettings({ ...settings, intervalMinutes: v })}
          disabled={!canEdit}
        />
        <NumberField
          label="At least this many chat lines between"
          value={settings.minChatLines}
          min={0}
          max={1000}
          onChange={(v) => setSettings({ ...settings, minChatLines: v })}
          disabled={!canEdit}
        />
        <Check
          label="Only send while live"
          checked={settings.onlyWhileLive}
          onChange={(onlyWhileLive) => setSettings({ ...settings, onlyWhileLive })}
          disabled={!canEdit}
        />
      </div>
      <SaveRow
        onSave={() => void save.run(() => saveChatbotSection(channelId, 'timer-settings', settings))}
        busy={save.busy}
        error={save.error}
        disabled={!canEdit}
      />
      {config.timers.length === 0 ? (
        <EmptyState title="No timed messages yet">Timed messages take turns: one every interval, while you are live and people are chatting.</EmptyState>
      ) : (
        <ul className={styles.list}>
          {config.timers.map((t) => (
            <li key={t.id} className={styles.item}>
              <div className={styles.itemMain}>
                <span className={styles.itemTitle}>{t.name}</span>
                <span className={styles.quote}>{t.message}</span>
              </div>
              <div className={styles.badges}>
                <Switch
                  label="On"
                  checked={t.enabled}
                  disabled={!canEdit}
                  onCheckedChange={(enabled) => void add.run(() => saveChatbotItem(channelId, 'timers', { name: t.name, message: t.message, enabled }, t.id))}
                />
                <RemoveButton
                  label={`Remove ${t.name}`}
                  disabled={!canEdit}
                  onRemove={() => void add.run(() => removeChatbotItem(channelId, 'timers', t.id))}
                />
              </div>
            </li>
          ))}
        </ul>
      )}
      <div className={styles.subsection}>
        <h3 className={styles.cardTitle}>Add a timed message</h3>
        <div className={styles.form}>
          <TextField label="Name" value={draft.name} onChange={(name) => setDraft({ ...draft, name })} max={CHATBOT_TEXT_MAX} disabled={!canEdit} />
          <TextField
            className={styles.full}
            label="Message"
            multiline
            value={draft.message}
            onChange={(message) => setDraft({ ...draft, message })}
            max={CHATBOT_MESSAGE_MAX}
            hint="Variables: {title} {game} {url}"
            disabled={!canEdit}
          />
        </div>
        <SaveRow
          label="Add timed message"
          onSave={() =>
            void add
              .run(() => saveChatbotItem(channelId, 'timers', { ...draft, platforms: ['twitch'] }))
              .then((ok) => ok && setDraft({ name: '', message: '' }))
          }
          busy={add.busy}
          error={add.error}
          disabled={!canEdit}
        />
      </div>
    </div>
  );
}

/** Quotes (spec §3): numbered, dated; viewers recall them with !quote 12. */
export function QuotesSection({ channelId, config, canEdit }: SectionProps) {
  const [draft, setDraft] = useState({ message: '', author: '' });
  const save = useSave();
  return (
    <div className={styles.stack}>
      {config.quotes.length === 0 ? (
        <EmptyState title="No quotes yet">
          Moderators add them in chat with !addquote text - author, or here. Viewers recall one with !quote and its number.
        </EmptyState>
      ) : (
        <ul className={styles.list}>
          {config.quotes.map((q) => (
            <li key={q.id} className={styles.item}>
              <div className={styles.itemMain}>
                <span className={styles.itemTitle}>
                  #{q.number} “{q.message}”
                </span>
                <span className={styles.muted}>
                  {q.author} · {new Date(q.createdAt).toLocaleDateString()}
                </span>
              </div>
              <RemoveButton
                label={`Remove quote ${q.number}`}
                disabled={!canEdit}
                onRemove={() => void save.run(() => removeChatbotItem(channelId, 'quotes', q.id))}
              />
            </li>
          ))}
        </ul>
      )}
      <div className={styles.subsection}>
        <h3 className={styles.cardTitle}>Add a quote</h3>
        <div className={styles.form}>
          <TextField
            className={styles.full}
            label="Quote"
            multiline
            value={draft.message}
            onChange={(message) => setDraft({ ...draft, message })}
            max={CHATBOT_MESSAGE_MAX}
            disabled={!canEdit}
          />
          <TextField
            label="Author"
            value={draft.author}
            onChange={(author) => setDraft({ ...draft, author })}
            max={CHATBOT_QUOTE_AUTHOR_MAX}
            hint={`At most ${CHATBOT_QUOTE_AUTHOR_MAX} characters`}
            disabled={!canEdit}
          />
        </div>
        <SaveRow
          label="Add quote"
          onSave={() => void save.run(() => saveChatbotItem(channelId, 'quotes', draft)).then((ok) => ok && setDraft({ message: '', author: '' }))}
          busy={save.busy}
          error={save.error}
          disabled={!canEdit}
        />
      </div>
    </div>
  );
}

/** Alerts (spec §3): a chat message per event type, with the event's variables. */
export function AlertsSection({ channelId, config, canEdit }: SectionProps) {
  const [alerts, setAlerts] = useState(config.alerts);
  const save = useSave();
  return (
    <div className={styles.stack}>
      {alertEventTypes.map((type) => (
        <div key={type} className={bot.filter}>
          <div className={bot.filterHead}>
            <span className={styles.itemTitle}>{alertEventTypeNames[type]}</span>
            <Switch
              label="On"
              checked={alerts[type].enabled}
              disabled={!canEdit}
              onCheckedChange={(enabled) => setAlerts({ ...alerts, [type]: { ...alerts[type], enabled } })}
            />
          </div>
          <TextField
            label="Message"
            value={alerts[type].message}
            max={CHATBOT_MESSAGE_MAX}
            onChange={(message) => setAlerts({ ...alerts, [type]: { ...alerts[type], message } })}
            hint={`Variables: ${ALERT_VARIABLES[type].map((v) => `{${v}}`).join(' ')}`}
            disabled={!canEdit}
          />
        </div>
      ))}
      <SaveRow onSave={() => void save.run(() => saveChatbotSection(channelId, 'alerts', alerts))} busy={save.busy} error={save.error} disabled={!canEdit} />
    </div>
  );
}

/** Extras: the built-in commands. */
export function ExtrasSection({ channelId, config, canEdit }: SectionProps) {
  const [extras, setExtras] = useState(config.extras);
  const save = useSave();
  return (
    <div className={styles.stack}>
      <Switch
        label="!permit @viewer — moderators let a viewer post links for a while (Chat Filters › Links)"
        checked={extras.permitCommand}
        disabled={!canEdit}
        onCheckedChange={(permitCommand) => setExtras({ ...extras, permitCommand })}
      />
      <Switch
        label="!quote [number] and !addquote text - author (moderators and regulars add)"
        checked={extras.quoteCommands}
        disabled={!canEdit}
        onCheckedChange={(quoteCommands) => setExtras({ ...extras, quoteCommands })}
      />
      <Switch
        label="!points — a viewer's balance (Loyalty › Points)"
        checked={extras.pointsCommand}
        disabled={!canEdit}
        onCheckedChange={(pointsCommand) => setExtras({ ...extras, pointsCommand })}
      />
      <Switch
        label="!watchtime — a viewer's hours watched; !rank — their rank and the next one (Loyalty › Ranks)"
        checked={extras.rankCommands}
        disabled={!canEdit}
        onCheckedChange={(rankCommands) => setExtras({ ...extras, rankCommands })}
      />
      <NumberField
        label="Each viewer may ask !points, !watchtime or !rank once every (seconds)"
        value={extras.statsUserCooldownSeconds}
        min={0}
        max={3600}
        onChange={(statsUserCooldownSeconds) => setExtras({ ...extras, statsUserCooldownSeconds })}
        disabled={!canEdit}
      />
      <SaveRow onSave={() => void save.run(() => saveChatbotSection(channelId, 'extras', extras))} busy={save.busy} error={save.error} disabled={!canEdit} />
    </div>
  );
}

/**
 * Link Preview: the bot reads the title of a page linked in chat and posts it with its site. The
 * words say what is fetched and what never is, so a creator knows what turning it on does.
 */
export function LinkPreviewSection({ channelId, config, canEdit }: SectionProps) {
  const [preview, setPreview] = useState(config.linkPreview);
  const save = useSave();
  return (
    <div className={styles.stack}>
      <Switch
        label="Post a preview of links in chat"
        checked={preview.enabled}
        disabled={!canEdit}
        onCheckedChange={(enabled) => setPreview({ ...preview, enabled })}
      />
      <NumberField
        label="Previews per minute at most"
        value={preview.maxPerMinute}
        min={1}
        max={30}
        disabled={!canEdit}
        onChange={(maxPerMinute) => setPreview({ ...preview, maxPerMinute })}
        hint="The same link is previewed at most once every 5 minutes, however often it is posted."
      />
      <p className={styles.hint}>
        When a viewer posts a link that your Chat Filters allow, the bot opens the page and posts its title and site, for example “Link: My speedrun guide
        (example.com)”. Commands are not previewed. Pages on private or local network addresses are never opened, even through a redirect; a page that is not a
        web page, is too large or takes longer than 3 seconds gets no preview.
      </p>
      <SaveRow
        onSave={() => void save.run(() => saveChatbotSection(channelId, 'link-preview', preview))}
        busy={save.busy}
        error={save.error}
        disabled={!canEdit}
      />
    </div>
  );
}
