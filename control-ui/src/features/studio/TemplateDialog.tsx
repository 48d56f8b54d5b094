import { Lock } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { Entitlements, SceneDocument, SceneTemplateId, SceneTemplateSummary } from '@onair/protocol';
import { addTemplateToProject, loadSceneTemplates } from '../../actions/projects.ts';
import { Button } from '../../components/Button.tsx';
import { Card } from '../../components/Card.tsx';
import { Modal } from '../../components/Modal.tsx';
import { templateFit } from '../../model/plan-limits.ts';
import { useProjectsStore, useStudioStore } from '../../stores/index.ts';
import { useOpenAccountSettings } from '../account-settings/use-open-account-settings.ts';
import styles from './TemplateDialog.module.css';

const CATEGORY_LABELS = { talk: 'Talk shows', gameplay: 'Gameplay' } as const;

/** Adds a template's scenes to the open project (spec "copy templates"): one card per template, its scenes named. */
export function TemplateDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const templates = useProjectsStore((s) => s.templates);
  const document = useStudioStore((s) => s.document);
  const entitlements = useStudioStore((s) => s.entitlements);
  const [adding, setAdding] = useState<SceneTemplateId | null>(null);
  const openAccountSettings = useOpenAccountSettings();
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
      <TemplateList
        templates={templates}
        document={document}
        entitlements={entitlements}
        adding={adding}
        onAdd={(id) => void add(id)}
        onUpgrade={() => openAccountSettings('plan')}
      />
    </Modal>
  );
}

/**
 * The templates by category. A template whose scenes the plan has no room for says so on its card,
 * with what it would take, before any click (issue 52); its Add is off.
 */
export function TemplateList({
  templates,
  document,
  entitlements,
  adding,
  onAdd,
  onUpgrade,
}: {
  templates: SceneTemplateSummary[];
  document: SceneDocument | null;
  entitlements: Entitlements;
  adding: SceneTemplateId | null;
  onAdd: (id: SceneTemplateId) => void;
  onUpgrade: () => void;
}) {
  return (
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
                .map((t) => {
                  const fit = document ? templateFit(t, document, entitlements) : { fits: true, reason: null };
                  const reasonId = `template-limit-${t.id}`;
                  return (
                    <Card as="li" key={t.id} aria-label={t.id}>
                      <div className={styles.text}>
                        <span className={styles.name}>{t.id}</span>
                        <span className={styles.description}>{t.description}</span>
                        <span className={styles.scenes}>Scenes: {t.sceneNames.join(', ')}</span>
                        {fit.reason && (
                          <span className={styles.limit} id={reasonId}>
                            <Lock size={12} aria-hidden /> {fit.reason}
                          </span>
                        )}
                      </div>
                      <div className={styles.actions}>
                        {!fit.fits && (
                          <Button variant="ghost" onClick={onUpgrade}>
                            Upgrade
                          </Button>
                        )}
                        <Button
                          variant="secondary"
                          disabled={adding !== null || !fit.fits}
                          aria-describedby={fit.reason ? reasonId : undefined}
                          onClick={() => onAdd(t.id)}
                        >
                          {adding === t.id ? 'Adding…' : 'Add'}
                        </Button>
                      </div>
                    </Card>
                  );
                })}
            </ul>
          </section>
        ))
      )}
    </div>
  );
}
