import { useEffect, useState } from 'react';
import type { SceneTemplateId } from '@onair/protocol';
import { addTemplateToProject, loadSceneTemplates } from '../../actions/projects.ts';
import { Button } from '../../components/Button.tsx';
import { Card } from '../../components/Card.tsx';
import { Modal } from '../../components/Modal.tsx';
import { useProjectsStore } from '../../stores/index.ts';
import styles from './TemplateDialog.module.css';

const CATEGORY_LABELS = { talk: 'Talk shows', gameplay: 'Gameplay' } as const;

/** Adds a template's scenes to the open project (spec "copy templates"): one card per template, its scenes named. */
export function TemplateDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const templates = useProjectsStore((s) => s.templates);
  const [adding, setAdding] = useState<SceneTemplateId | null>(null);
  useEffect(() => {
    if (open) void loadSceneTemplates();
  }, [open]);
  const add = async (id: SceneTemplateId) => {
    setAdding(id);
    const added = await addTemplateToProject(id);
    setAdding(null);
    if (added) onClose();
  };
  return (
    <Modal open={open} onClose={onClose} title="Add scenes from a template" description="A template's scenes are added after yours, with your camera in them.">
      <div className={styles.content}>
        {templates.length === 0 ? (
          <p className={styles.loading}>Loading templates…</p>
        ) : (
          (['talk', 'gameplay'] as const).map((category) => (
            <section key={category} className={styles.group} aria-label={CATEGORY_LABELS[category]}>
              <h3 className={styles.groupTitle}>{CATEGORY_LABELS[category]}</h3>
              <ul className={styles.list}>
                {templates
                  .filter((t) => t.category === category)
                  .map((t) => (
                    <Card as="li" key={t.id} aria-label={t.id}>
                      <div className={styles.text}>
                        <span className={styles.name}>{t.id}</span>
                        <span className={styles.description}>{t.description}</span>
                        <span className={styles.scenes}>Scenes: {t.sceneNames.join(', ')}</span>
                      </div>
                      <Button variant="secondary" disabled={adding !== null} onClick={() => void add(t.id)}>
                        {adding === t.id ? 'Adding…' : 'Add'}
                      </Button>
                    </Card>
                  ))}
              </ul>
            </section>
          ))
        )}
      </div>
    </Modal>
  );
}
