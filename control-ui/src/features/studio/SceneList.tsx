import { ArrowDown, ArrowUp, Check, Clapperboard, LayoutTemplate, Pencil, Plus, Trash2, X } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { addScene, deleteScene, moveScene, renameScene, setCountdownSeconds, switchScene } from '../../actions/scene-edits.ts';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { IconButton } from '../../components/IconButton.tsx';
import { useStudioStore } from '../../stores/index.ts';
import { MediaLibraryDialog } from '../uploads/MediaLibraryDialog.tsx';
import { CountdownLeft, useCountdownFollower } from './CountdownLeft.tsx';
import { LayerList } from './LayerList.tsx';
import { TemplateDialog } from './TemplateDialog.tsx';
import styles from './SceneList.module.css';
import { Input } from '../../components/FormField.tsx';

/** The column of the project's scenes, in order: add, rename, reorder, delete, switch; then the active scene's sources. */
export function SceneList() {
  const document = useStudioStore((s) => s.document);
  const status = useStudioStore((s) => s.status);
  const [editing, setEditing] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  const [libraryOpen, setLibraryOpen] = useState(false);
  const [templatesOpen, setTemplatesOpen] = useState(false);
  useCountdownFollower();
  const scenes = document?.scenes.filter((s) => s.deletedAt === null) ?? [];

  const submitRename = (event: FormEvent, sceneId: string) => {
    event.preventDefault();
    if (draft.trim()) renameScene(sceneId, draft.trim());
    setEditing(null);
  };

  return (
    <aside className={styles.column} aria-labelledby="scene-list-heading">
      <div className={styles.headingRow}>
        <h2 id="scene-list-heading" className={styles.heading}>
          Scenes
        </h2>
        {document && (
          <span className={styles.headingActions}>
            <IconButton label="Screens and media" icon={<Clapperboard size={16} />} onClick={() => setLibraryOpen(true)} />
            <IconButton label="Templates" icon={<LayoutTemplate size={16} />} onClick={() => setTemplatesOpen(true)} />
            <IconButton label="Add scene" icon={<Plus size={16} />} onClick={() => addScene(`Scene ${scenes.length + 1}`)} />
          </span>
        )}
        {document && <MediaLibraryDialog open={libraryOpen} projectId={document.projectId} onClose={() => setLibraryOpen(false)} />}
        {document && <TemplateDialog open={templatesOpen} onClose={() => setTemplatesOpen(false)} />}
      </div>
      {!document ? (
        <EmptyState title={status === 'loading' ? 'Loading scenes…' : 'No scenes yet'}>
          <p>The scenes of this project appear here when the studio has loaded it.</p>
        </EmptyState>
      ) : (
        <ol className={styles.scenes} aria-label="Scenes">
          {scenes.map((scene, index) => {
            const active = scene.id === document.activeSceneId;
            return (
              <li
                key={scene.id}
                className={`${styles.scene} ${active ? styles.active : ''}`}
                data-testid="scene-item"
                aria-current={active ? 'true' : undefined}
              >
                {editing === scene.id ? (
                  <form className={styles.renameForm} onSubmit={(e) => submitRename(e, scene.id)}>
                    <Input
                      className={styles.input}
                      value={draft}
                      maxLength={100}
                      aria-label="Scene name"
                      autoFocus
                      onChange={(e) => setDraft(e.target.value)}
                      onKeyDown={(e) => e.key === 'Escape' && setEditing(null)}
                    />
                    <IconButton type="submit" label="Save name" icon={<Check size={14} />} />
                    <IconButton label="Cancel" icon={<X size={14} />} onClick={() => setEditing(null)} />
                  </form>
                ) : (
                  <>
                    {/* Named by the scene alone: the time left inside changes every second (the canvas says it in words). */}
                    <Button variant="ghost" className={styles.sceneButton} onClick={() => switchScene(scene.id)} aria-pressed={active} aria-label={scene.name}>
                      {scene.name}
                      {scene.kind === 'countdown' && <CountdownLeft sceneId={scene.id} className={styles.countdownLeft} />}
                    </Button>
                    {scene.countdown && (
                      <CountdownSeconds
                        key={`${scene.id}:${scene.countdown.seconds}`}
                        sceneId={scene.id}
                        sceneName={scene.name}
                        seconds={scene.countdown.seconds}
                      />
                    )}
                    <div className={styles.sceneActions}>
                      <IconButton
                        label={`Rename ${scene.name}`}
                        icon={<Pencil size={14} />}
                        onClick={() => {
                          setDraft(scene.name);
                          setEditing(scene.id);
                        }}
                      />
                      <IconButton label={`Move ${scene.name} up`} icon={<ArrowUp size={14} />} disabled={index === 0} onClick={() => moveScene(scene.id, -1)} />
                      <IconButton
                        label={`Move ${scene.name} down`}
                        icon={<ArrowDown size={14} />}
                        disabled={index === scenes.length - 1}
                        onClick={() => moveScene(scene.id, 1)}
                      />
                      <IconButton
                        label={`Delete ${scene.name}`}
                        icon={<Trash2 size={14} />}
                        disabled={scenes.length === 1}
                        onClick={() => deleteScene(scene.id)}
                      />
                    </div>
                  </>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {document && <LayerList />}
    </aside>
  );
}

/** A countdown scene's time, saved when the field is left or Enter is pressed; the server switches scenes when it is up. */
function CountdownSeconds({ sceneId, sceneName, seconds }: { sceneId: string; sceneName: string; seconds: number }) {
  const [draft, setDraft] = useState(String(seconds));
  const save = () => {
    const next = Number(draft);
    if (next !== seconds && !setCountdownSeconds(sceneId, next)) setDraft(String(seconds));
  };
  return (
    <label className={styles.countdown}>
      <Input
        className={styles.countdownInput}
        type="number"
        min={1}
        max={3600}
        value={draft}
        aria-label={`Seconds of ${sceneName}`}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={save}
        onKeyDown={(e) => e.key === 'Enter' && save()}
      />
      s
    </label>
  );
}
