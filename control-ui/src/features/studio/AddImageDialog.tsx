import { useId, useState, type FormEvent } from 'react';
import { addSourceToScene } from '../../actions/scene-edits.ts';
import { Button } from '../../components/Button.tsx';
import { Modal } from '../../components/Modal.tsx';
import { Select } from '../../components/Select.tsx';
import styles from './SettingsForm.module.css';

/** An image for the scene: a replacement logo or a background (both paid features; the server checks). */
export function AddImageDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const urlId = useId();
  const purposeId = useId();
  const [url, setUrl] = useState('');
  const [purpose, setPurpose] = useState<'logo' | 'background'>('background');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (addSourceToScene('image', { url: url.trim(), purpose })) onClose();
  };
  return (
    <Modal open={open} onClose={onClose} title="Add image" description="Show your own logo or background image in this scene.">
      <form className={styles.form} onSubmit={submit}>
        <label htmlFor={urlId} className={styles.label}>
          Image address
        </label>
        <input id={urlId} className={styles.input} type="url" required placeholder="https://…" value={url} onChange={(e) => setUrl(e.target.value)} />
        <label htmlFor={purposeId} className={styles.label}>
          Use as
        </label>
        <Select
          id={purposeId}
          value={purpose}
          options={[
            { value: 'background', label: 'Background' },
            { value: 'logo', label: 'Logo' },
          ]}
          onValueChange={(value) => setPurpose(value === 'logo' ? 'logo' : 'background')}
        />
        <div className={styles.actions}>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary">
            Add image
          </Button>
        </div>
      </form>
    </Modal>
  );
}
