import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { sourceKindInfo, webpageModes, type Source, type SourceSettingsChange } from '@onair/protocol';
import { updateSource } from '../../actions/scene-edits.ts';
import { closePanel } from '../../actions/studio.ts';
import { Button } from '../../components/Button.tsx';
import { Modal } from '../../components/Modal.tsx';
import { Select } from '../../components/Select.tsx';
import { Switch } from '../../components/Switch.tsx';
import { useDeviceStore, useStudioStore } from '../../stores/index.ts';
import { CameraSettingsDialog } from './CameraSettingsDialog.tsx';
import form from './SettingsForm.module.css';
import { Input } from '../../components/FormField.tsx';

type Draft = Record<string, unknown>;

function Field({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <>
      <label htmlFor={id} className={form.label}>
        {label}
      </label>
      {children(id)}
    </>
  );
}

/** The settings a kind exposes, as form controls writing into the draft. */
function KindFields({ source, draft, set }: { source: Source; draft: Draft; set: (key: string, value: unknown) => void }) {
  const microphones = useDeviceStore((s) => s.microphones);
  const value = <T,>(key: string, fallback: T): T => (key in draft ? (draft[key] as T) : fallback);
  const settings = source.settings as Record<string, unknown>;
  const current = <T,>(key: string) => value<T>(key, settings[key] as T);
  const fields: ReactNode[] = [];

  if ('opacity' in settings) {
    fields.push(
      <Field key="opacity" label={`Opacity (${Math.round(current<number>('opacity') * 100)}%)`}>
        {(id) => (
          <input id={id} type="range" min={0} max={1} step={0.01} value={current<number>('opacity')} onChange={(e) => set('opacity', Number(e.target.value))} />
        )}
      </Field>,
    );
  }
  if ('volume' in settings) {
    fields.push(
      <Field key="volume" label={`Volume (${Math.round(current<number>('volume') * 100)}%)`}>
        {(id) => (
          <input
            id={id}
            type="range"
            min={0}
            max={1}
            step={0.01}
            value={current<number>('volume')}
            // Spec §5: moving the volume unmutes.
            onChange={(e) => {
              set('volume', Number(e.target.value));
              set('muted', false);
            }}
          />
        )}
      </Field>,
      <Switch key="muted" label="Muted" checked={current<boolean>('muted')} onCheckedChange={(on) => set('muted', on)} />,
    );
  }
  if ('displayName' in settings) {
    fields.push(
      <Field key="displayName" label="Display name">
        {(id) => <Input id={id} maxLength={100} value={current<string>('displayName')} onChange={(e) => set('displayName', e.target.value)} />}
      </Field>,
    );
  }
  if (source.kind === 'microphone') {
    fields.push(
      <Field key="mic" label="Microphone">
        {(id) => (
          <Select
            id={id}
            value={current<string | null>('microphoneDeviceId') ?? ''}
            options={[
              { value: '', label: 'No microphone' },
              { value: 'default', label: 'System default' },
              ...microphones.map((m) => ({ value: m.deviceId, label: m.label || 'Microphone' })),
            ]}
            onValueChange={(value) => set('microphoneDeviceId', value || null)}
          />
        )}
      </Field>,
      <Switch key="music" label="Optimize for music" checked={current<boolean>('optimizeForMusic')} onCheckedChange={(on) => set('optimizeForMusic', on)} />,
    );
  }
  if (source.kind === 'game') {
    fields.push(
      <Field key="participant" label="Console participant id">
        {(id) => <Input id={id} value={current<string | null>('participantId') ?? ''} onChange={(e) => set('participantId', e.target.value || null)} />}
      </Field>,
    );
  }
  if (source.kind === 'webpage') {
    const config = { ...source.settings.config, ...((draft.config as object | undefined) ?? {}) };
    const setConfig = (key: string, v: unknown) => set('config', { ...((draft.config as object | undefined) ?? {}), [key]: v });
    fields.push(
      <Field key="url" label="Address">
        {(id) => <Input id={id} type="url" placeholder="https://…" value={config.url} onChange={(e) => setConfig('url', e.target.value.trim())} />}
      </Field>,
      <Field key="title" label="Title">
        {(id) => <Input id={id} maxLength={100} value={config.title} onChange={(e) => setConfig('title', e.target.value)} />}
      </Field>,
      <Switch
        key="preview"
        label="Show a preview of the page in the studio"
        checked={config.canPreviewUrl}
        onCheckedChange={(on) => setConfig('canPreviewUrl', on)}
      />,
      <Field key="mode" label="Loading">
        {(id) => (
          <Select
            id={id}
            value={config.mode}
            options={[
              { value: 'scene-loaded', label: 'Load only while its scene is on' },
              { value: 'keep-loaded', label: 'Keep loaded in every scene' },
            ]}
            onValueChange={(value) => setConfig('mode', webpageModes.find((m) => m === value) ?? 'scene-loaded')}
          />
        )}
      </Field>,
    );
  }
  if (source.kind === 'video') {
    fields.push(
      <Switch key="loop" label="Play in a loop" checked={current<boolean>('loop')} onCheckedChange={(on) => set('loop', on)} />,
      <Switch
        key="restart"
        label="Start over whenever its scene is shown"
        checked={current<boolean>('restartOnShow')}
        onCheckedChange={(on) => set('restartOnShow', on)}
      />,
    );
  }
  // An uploaded image has no address to edit.
  if (source.kind === 'image' && !source.settings.uploadId) {
    fields.push(
      <Field key="url" label="Image address">
        {(id) => <Input id={id} type="url" value={current<string>('url')} onChange={(e) => set('url', e.target.value.trim())} />}
      </Field>,
    );
  }
  return <>{fields}</>;
}

/** The settings panel of one source, per kind; saved as one edit. */
export function SourceSettingsDialog({ sourceId }: { sourceId: string }) {
  const source = useStudioStore((s) => s.document?.sources.find((x) => x.id === sourceId));
  const [name, setName] = useState(source?.name ?? '');
  const [draft, setDraft] = useState<Draft>({});
  const nameId = useId();
  if (!source) return null;
  const label = sourceKindInfo[source.kind].label;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const change: { name?: string; settings?: SourceSettingsChange } = {};
    if (name.trim() && name.trim() !== source.name) change.name = name.trim();
    if (Object.keys(draft).length > 0) change.settings = { kind: source.kind, ...draft } as SourceSettingsChange;
    if ((change.name === undefined && change.settings === undefined) || updateSource(source.id, change)) closePanel();
  };
  return (
    <Modal open onClose={closePanel} title={`${label} settings`} description={`Settings of ${source.name}`}>
      <form className={form.form} onSubmit={submit}>
        <label htmlFor={nameId} className={form.label}>
          Name
        </label>
        <Input id={nameId} maxLength={100} required value={name} onChange={(e) => setName(e.target.value)} />
        <KindFields source={source} draft={draft} set={(key, value) => setDraft((d) => ({ ...d, [key]: value }))} />
        <div className={form.actions}>
          <Button onClick={closePanel}>Cancel</Button>
          <Button type="submit" variant="primary">
            Save
          </Button>
        </div>
      </form>
    </Modal>
  );
}

/** Whichever panel the studio has open. */
export function StudioPanels() {
  const panel = useStudioStore((s) => s.panel);
  if (!panel) return null;
  return panel.kind === 'camera-settings' ? (
    <CameraSettingsDialog key={panel.sourceId} sourceId={panel.sourceId} />
  ) : (
    <SourceSettingsDialog key={panel.sourceId} sourceId={panel.sourceId} />
  );
}
