import { useId, type ReactNode } from 'react';
import {
  canvasKinds,
  canvasLabels,
  DESCRIPTION_MAX,
  destinationKinds,
  DESTINATION_NAME_MAX,
  facebookTargetLabels,
  TITLE_MAX,
  type CanvasKind,
  type StreamDestinationOption,
} from '@onair/protocol';
import { askRemoveDestination, chooseStreamTarget, closeDestinationForm, setDestinationFormValue, submitDestinationForm } from '../../actions/destinations.ts';
import { Button } from '../../components/Button.tsx';
import { Modal } from '../../components/Modal.tsx';
import { Select, type SelectOption } from '../../components/Select.tsx';
import { Switch } from '../../components/Switch.tsx';
import { formFields } from '../../model/destinations.ts';
import { useDestinationsStore, type DestinationForm } from '../../stores/index.ts';
import { LocalStreamAddress } from './LocalStream.tsx';
import styles from './Destinations.module.css';
import { Input, TextArea } from '../../components/FormField.tsx';

/** Spec §2: the per-platform fields, 'Apply metadata to all destinations', Add Destination or Save, Cancel. */
export function DestinationFormDialog() {
  const form = useDestinationsStore((s) => s.form);
  const kind = form ? destinationKinds[form.type] : null;
  const title = form?.editing ? `Edit ${kind?.label ?? ''}` : `Add ${kind?.label ?? ''}`;
  return (
    <Modal open={form !== null} onClose={closeDestinationForm} title={title} description="The destination's settings.">
      {form && <DestinationFormFields form={form} />}
    </Modal>
  );
}

/** The form itself, apart from its dialog (so it renders on its own in tests). */
export function DestinationFormFields({ form }: { form: DestinationForm }) {
  const kind = destinationKinds[form.type];
  const fields = formFields(form.type);
  const v = form.values;
  const keySaved = form.editing?.streamKeyMasked ?? null;
  return (
    <form
      className={styles.form}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submitDestinationForm();
      }}
    >
      {fields.includes('name') && (
        <Field label="Name" error={form.errors.name} count={[v.name.length, DESTINATION_NAME_MAX]}>
          {(id, invalid) => (
            <Input id={id} className={styles.input} aria-invalid={invalid} value={v.name} onChange={(e) => setDestinationFormValue('name', e.target.value)} />
          )}
        </Field>
      )}
      {fields.includes('rtmpUrl') && (
        <Field label="Server URL" error={form.errors.rtmpUrl}>
          {(id, invalid) => (
            <Input
              id={id}
              className={styles.input}
              aria-invalid={invalid}
              placeholder="rtmp://"
              readOnly={!kind.ingest.urlEditable}
              value={v.rtmpUrl}
              onChange={(e) => setDestinationFormValue('rtmpUrl', e.target.value.trim())}
            />
          )}
        </Field>
      )}
      {fields.includes('streamKey') && (
        <Field label={kind.ingest.keyLabel} error={form.errors.streamKey}>
          {(id, invalid) => (
            <Input
              id={id}
              className={styles.input}
              aria-invalid={invalid}
              type="password"
              autoComplete="off"
              placeholder={keySaved ?? ''}
              value={v.streamKey}
              onChange={(e) => setDestinationFormValue('streamKey', e.target.value)}
            />
          )}
        </Field>
      )}
      {form.editing?.type === 'Local' && (
        <Field label="Watch this stream">{() => <LocalStreamAddress destination={form.editing!} onWatch={closeDestinationForm} rotatable />}</Field>
      )}
      {fields.includes('title') && (
        <Field label={kind.metadata?.title === 'required' ? 'Title' : 'Title (optional)'} error={form.errors.title} count={[v.title.length, TITLE_MAX]}>
          {(id, invalid) => (
            <Input id={id} className={styles.input} aria-invalid={invalid} value={v.title} onChange={(e) => setDestinationFormValue('title', e.target.value)} />
          )}
        </Field>
      )}
      {fields.includes('description') && (
        <Field label="Description (optional)" error={form.errors.description} count={[v.description.length, DESCRIPTION_MAX]}>
          {(id, invalid) => (
            <TextArea
              id={id}
              className={`${styles.input} ${styles.textarea}`}
              aria-invalid={invalid}
              value={v.description}
              onChange={(e) => setDestinationFormValue('description', e.target.value)}
            />
          )}
        </Field>
      )}
      {fields.includes('privacy') && (
        <Field label="Privacy" error={form.errors.privacy}>
          {(id) => (
            <Select
              id={id}
              value={v.privacy}
              options={(kind.metadata?.privacy ?? []).map((p) => ({ value: p.value, label: p.label }))}
              onValueChange={(value) => setDestinationFormValue('privacy', value)}
            />
          )}
        </Field>
      )}
      {form.type === 'Facebook' && form.targets && (
        <Field label="Stream to">
          {(id) => (
            <Select
              id={id}
              value={form.editing?.settings.streamDestination?.id ?? form.targets?.find((t) => t.type === 'timeline')?.id ?? null}
              // Spec §5: a target another Facebook destination uses is disabled.
              options={facebookTargetOptions(form.targets ?? [])}
              onValueChange={(value) => {
                const target = form.targets?.find((t) => t.id === value);
                if (target) void chooseStreamTarget({ id: target.id, name: target.name, type: target.type });
              }}
            />
          )}
        </Field>
      )}
      <Field label="Canvas">
        {(id) => (
          <Select
            id={id}
            value={v.canvas}
            options={canvasKinds.map((canvas) => ({ value: canvas, label: canvasLabels[canvas] }))}
            onValueChange={(value) => setDestinationFormValue('canvas', value as CanvasKind)}
          />
        )}
      </Field>
      {fields.includes('applyMetadataToAll') && (
        <Switch
          label="Apply metadata to all destinations"
          checked={v.applyMetadataToAll}
          onCheckedChange={(on) => setDestinationFormValue('applyMetadataToAll', on)}
        />
      )}
      {form.formError && (
        <p className={styles.formError} role="alert">
          {form.formError}
        </p>
      )}
      <div className={styles.actions}>
        {form.editing && (
          <Button variant="ghost" className={styles.spread} onClick={() => askRemoveDestination(form.editing!.id)}>
            Remove
          </Button>
        )}
        <Button variant="ghost" onClick={closeDestinationForm}>
          Cancel
        </Button>
        <Button variant="primary" type="submit" disabled={form.saving}>
          {form.editing ? 'Save' : 'Add Destination'}
        </Button>
      </div>
    </form>
  );
}

function Field({
  label,
  error,
  count,
  children,
}: {
  label: string;
  error?: string | undefined;
  count?: [number, number];
  children: (id: string, invalid: boolean) => ReactNode;
}) {
  const id = useId();
  const invalid = error !== undefined || (count !== undefined && count[0] > count[1]);
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      {children(id, invalid)}
      {count && (
        <span className={styles.count}>
          {count[0]}/{count[1]}
        </span>
      )}
      {error && (
        <p className={styles.fieldError} data-field-error={label}>
          {error}
        </p>
      )}
    </div>
  );
}

/** Facebook targets as list options; spec §5: a target another Facebook destination uses is disabled. */
export function facebookTargetOptions(targets: readonly StreamDestinationOption[]): SelectOption[] {
  return targets.map((t) => ({ value: t.id, label: `${facebookTargetLabels[t.type]}: ${t.name}`, disabled: t.disabled }));
}
