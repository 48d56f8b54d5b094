import { useEffect, useRef, useState } from 'react';
import {
  ALERT_VARIABLES,
  alertEventTypeNames,
  alertEventTypes,
  goalMetricLabels,
  moneyGoalMetrics,
  goalMetrics,
  OVERLAY_MESSAGE_MAX,
  OVERLAY_TEXT_MAX,
  SITE_IMAGE_ACCEPT,
  SITE_IMAGE_TYPES,
  widgetKindLabels,
  type Widget,
  type WidgetOf,
} from '@onair/protocol';
import { removeWidget, updateWidget, uploadOverlayImage } from '../../actions/partner-overlays.ts';
import { closeCampaigns, showCampaigns } from '../../actions/campaigns.ts';
import { useCampaignsStore, useOverlaysStore } from '../../stores/index.ts';
import { Button } from '../../components/Button.tsx';
import { Select } from '../../components/Select.tsx';
import partner from '../partner-home/Partner.module.css';
import styles from './Overlays.module.css';
import { Input, TextArea } from '../../components/FormField.tsx';

const NO_CAMPAIGN = 'none';

/** The sponsor widget's campaign: one the creator takes part in (Sponsorship lists the same). */
function SponsorCampaign({ widget, set }: { widget: WidgetOf<'sponsor'>; set: (patch: Partial<Widget>) => void }) {
  const { items } = useCampaignsStore((s) => s.list);
  useEffect(() => {
    void showCampaigns({ list: 'mine' });
    return closeCampaigns;
  }, []);
  const joined = (items ?? []).filter((i) => i.application && (i.application.status === 'accepted' || i.application.status === 'claimed'));
  return (
    <Field label="Campaign">
      {items && joined.length === 0 ? (
        <p className={partner.muted}>You take part in no campaign yet: join one under Campaigns, then choose it here.</p>
      ) : (
        <Select
          value={widget.campaignId ?? NO_CAMPAIGN}
          options={[
            { value: NO_CAMPAIGN, label: 'Choose a campaign' },
            ...joined.map((i) => ({ value: i.campaign.id, label: `${i.campaign.name} (${i.campaign.game})` })),
          ]}
          onValueChange={(id) => set({ campaignId: id === NO_CAMPAIGN ? null : id } as Partial<Widget>)}
          aria-label="Campaign"
        />
      )}
    </Field>
  );
}

/** `YYYY-MM-DDTHH:mm` in local time, for a datetime-local input. */
function localInput(iso: string): string {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

function Field({ label, error, children }: { label: string; error?: string | undefined; children: React.ReactNode }) {
  return (
    <label className={partner.field}>
      <span className={partner.label}>{label}</span>
      {children}
      {error && <span className={partner.fieldError}>{error}</span>}
    </label>
  );
}

function NumberInput({ value, min, max, onChange, label }: { value: number; min: number; max: number; onChange: (n: number) => void; label: string }) {
  return (
    <Field label={label}>
      <Input type="number" min={min} max={max} value={value} onChange={(e) => Number.isFinite(e.target.valueAsNumber) && onChange(e.target.valueAsNumber)} />
    </Field>
  );
}

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 ** 2) * 10) / 10} MB`;

/** An image widget's picture: uploaded through the uploads store (§5 rules shown), or an address on the web. */
function ImageFields({ widget, channelId, errors }: { widget: WidgetOf<'image'>; channelId: string; errors: Record<string, string> }) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const saved = useOverlaysStore((s) => s.saved);
  const image = widget.uploadId ? saved?.images[widget.uploadId] : undefined;
  const onOverlay = saved && widget.uploadId ? saved.widgets.some((w) => w.kind === 'image' && w.uploadId === widget.uploadId) : false;
  const pick = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    setRefusal(await uploadOverlayImage(channelId, widget.id, file));
    setBusy(false);
    if (input.current) input.current.value = '';
  };
  return (
    <>
      <div className={styles.imageUpload}>
        <p className={partner.hint}>
          {image
            ? `${image.name} · ${image.width}×${image.height}${onOverlay ? '' : ' · shown on the overlay once saved'}`
            : widget.uploadId
              ? 'An uploaded picture.'
              : 'No uploaded picture.'}
        </p>
        <div className={styles.uploadRow}>
          <input ref={input} type="file" hidden accept={SITE_IMAGE_ACCEPT} aria-label="Image file" onChange={(e) => void pick(e.target.files?.[0])} />
          <Button disabled={busy} onClick={() => input.current?.click()}>
            {busy ? 'Uploading…' : widget.uploadId ? 'Replace picture' : 'Upload a picture'}
          </Button>
          <span className={partner.hint}>
            {SITE_IMAGE_TYPES}, up to {megabytes(saved?.maxImageBytes ?? 0)}.
          </span>
        </div>
        {(refusal ?? errors.uploadId) && (
          <span role="alert" className={partner.fieldError}>
            {refusal ?? errors.uploadId}
          </span>
        )}
      </div>
      <Field label="Or an image address (https)" error={errors.url}>
        <Input
          type="url"
          value={widget.url}
          placeholder={widget.uploadId ? 'Using the uploaded picture' : 'https://'}
          onChange={(e) => updateWidget(widget.id, { url: e.target.value, uploadId: null } as Partial<Widget>)}
        />
      </Field>
    </>
  );
}

/** The selected widget's settings; `errors` are the api's words for this widget's fields. */
export function WidgetInspector({
  widget,
  errors,
  editable,
  channelId,
}: {
  widget: Widget;
  errors: Record<string, string>;
  editable: boolean;
  channelId: string;
}) {
  const set = (changes: Partial<Widget>) => updateWidget(widget.id, changes);
  return (
    <fieldset className={partner.card} disabled={!editable} aria-label={`${widgetKindLabels[widget.kind]} settings`}>
      <h2 className={partner.cardTitle}>{widgetKindLabels[widget.kind]}</h2>
      <div className={styles.row}>
        <NumberInput label="X" value={widget.x} min={0} max={1264} onChange={(x) => set({ x })} />
        <NumberInput label="Y" value={widget.y} min={0} max={704} onChange={(y) => set({ y })} />
        <NumberInput label="Width" value={widget.width} min={16} max={1280} onChange={(width) => set({ width })} />
        <NumberInput label="Height" value={widget.height} min={16} max={720} onChange={(height) => set({ height })} />
      </div>
      {'color' in widget && (
        <div className={styles.row}>
          <Field label="Text colour">
            <input className={styles.colorInput} type="color" value={widget.color} onChange={(e) => set({ color: e.target.value })} />
          </Field>
          <NumberInput label="Text size" value={widget.fontSize} min={10} max={96} onChange={(fontSize) => set({ fontSize })} />
        </div>
      )}
      {widget.kind === 'alertBox' && (
        <>
          <NumberInput
            label="Seconds on screen"
            value={widget.durationMs / 1000}
            min={2}
            max={15}
            onChange={(s) => set({ durationMs: Math.round(s * 1000) })}
          />
          {alertEventTypes.map((type) => {
            const template = widget.alerts[type];
            const setTemplate = (changes: Partial<typeof template>) =>
              set({ alerts: { ...widget.alerts, [type]: { ...template, ...changes } } } as Partial<Widget>);
            return (
              <div key={type} className={styles.alertRow}>
                <input
                  type="checkbox"
                  aria-label={`${alertEventTypeNames[type]} alert on`}
                  checked={template.enabled}
                  onChange={(e) => setTemplate({ enabled: e.target.checked })}
                />
                <Field
                  label={`${alertEventTypeNames[type]} · ${ALERT_VARIABLES[type].map((v) => `{${v}}`).join(' ')}`}
                  error={errors[`alerts.${type}.message`]}
                >
                  <Input maxLength={OVERLAY_MESSAGE_MAX} value={template.message} onChange={(e) => setTemplate({ message: e.target.value })} />
                </Field>
              </div>
            );
          })}
        </>
      )}
      {widget.kind === 'recentEvents' && (
        <>
          <Field label="Title" error={errors.title}>
            <Input maxLength={OVERLAY_TEXT_MAX} value={widget.title} onChange={(e) => set({ title: e.target.value })} />
          </Field>
          <NumberInput label="Events shown" value={widget.count} min={1} max={10} onChange={(count) => set({ count })} />
          <div className={partner.checks}>
            {alertEventTypes.map((type) => (
              <label key={type} className={partner.check}>
                <input
                  type="checkbox"
                  checked={widget.types.includes(type)}
                  onChange={(e) => set({ types: e.target.checked ? [...widget.types, type] : widget.types.filter((t) => t !== type) } as Partial<Widget>)}
                />
                {alertEventTypeNames[type]}
              </label>
            ))}
          </div>
          {errors.types && <span className={partner.fieldError}>Choose at least one event type.</span>}
        </>
      )}
      {widget.kind === 'chatBox' && (
        <>
          <NumberInput label="Messages shown" value={widget.count} min={1} max={20} onChange={(count) => set({ count })} />
          <p className={partner.hint}>Which viewers’ messages show is set by the overlay’s trigger access.</p>
        </>
      )}
      {widget.kind === 'goalBar' && (
        <>
          <Field label="Title" error={errors.title}>
            <Input maxLength={OVERLAY_TEXT_MAX} value={widget.title} onChange={(e) => set({ title: e.target.value })} />
          </Field>
          <Field label="Goal">
            <Select
              value={widget.metric}
              options={goalMetrics.map((m) => ({ value: m, label: goalMetricLabels[m] }))}
              onValueChange={(m) => set({ metric: m as (typeof goalMetrics)[number] } as Partial<Widget>)}
              aria-label="Goal"
            />
          </Field>
          <div className={styles.row}>
            <NumberInput
              label={moneyGoalMetrics.includes(widget.metric) ? `Target (${widget.currency})` : 'Target'}
              value={moneyGoalMetrics.includes(widget.metric) ? widget.target / 100 : widget.target}
              min={1}
              max={1_000_000}
              onChange={(n) => set({ target: Math.max(1, Math.round(moneyGoalMetrics.includes(widget.metric) ? n * 100 : n)) } as Partial<Widget>)}
            />
            {moneyGoalMetrics.includes(widget.metric) && (
              <Field label="Currency" error={errors.currency}>
                <Input maxLength={3} value={widget.currency} onChange={(e) => set({ currency: e.target.value.toUpperCase() } as Partial<Widget>)} />
              </Field>
            )}
          </div>
          <Field label="Counting since">
            <Input
              type="datetime-local"
              value={localInput(widget.since)}
              onChange={(e) => e.target.value && set({ since: new Date(e.target.value).toISOString() } as Partial<Widget>)}
            />
          </Field>
          <Field label="Bar colour">
            <input className={styles.colorInput} type="color" value={widget.barColor} onChange={(e) => set({ barColor: e.target.value } as Partial<Widget>)} />
          </Field>
        </>
      )}
      {widget.kind === 'text' && (
        <Field label="Text" error={errors.text}>
          <TextArea maxLength={OVERLAY_MESSAGE_MAX} value={widget.text} onChange={(e) => set({ text: e.target.value } as Partial<Widget>)} />
        </Field>
      )}
      {widget.kind === 'image' && <ImageFields widget={widget} channelId={channelId} errors={errors} />}
      {widget.kind === 'timer' && (
        <>
          <Field label="Label" error={errors.label}>
            <Input maxLength={OVERLAY_TEXT_MAX} value={widget.label} onChange={(e) => set({ label: e.target.value } as Partial<Widget>)} />
          </Field>
          <Field label="Counts">
            <Select
              value={widget.mode}
              options={[
                { value: 'countdown', label: 'Down to a time (countdown)' },
                { value: 'stopwatch', label: 'Up from a time (stopwatch)' },
              ]}
              onValueChange={(mode) => set({ mode: mode as 'countdown' | 'stopwatch' } as Partial<Widget>)}
              aria-label="Counts"
            />
          </Field>
          <Field label={widget.mode === 'countdown' ? 'Ends at' : 'Started at'}>
            <Input
              type="datetime-local"
              value={localInput(widget.at)}
              onChange={(e) => e.target.value && set({ at: new Date(e.target.value).toISOString() } as Partial<Widget>)}
            />
          </Field>
        </>
      )}
      {widget.kind === 'sponsor' && (
        <>
          <Field label="Label" error={errors.label}>
            <Input maxLength={OVERLAY_TEXT_MAX} value={widget.label} onChange={(e) => set({ label: e.target.value } as Partial<Widget>)} />
          </Field>
          <SponsorCampaign widget={widget} set={set} />
        </>
      )}
      {Object.keys(errors).length > 0 && (
        <p role="alert" className={partner.formError}>
          {Object.values(errors)[0]}
        </p>
      )}
      {editable && (
        <Button onClick={() => removeWidget(widget.id)} variant="ghost">
          Remove widget
        </Button>
      )}
    </fieldset>
  );
}
