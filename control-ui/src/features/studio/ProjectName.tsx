import { Pencil } from 'lucide-react';
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { hasPermission, type ProjectDetails } from '@onair/protocol';
import { renameOpenProject } from '../../actions/projects.ts';
import { useStudioStore } from '../../stores/index.ts';
import styles from './StudioTopBar.module.css';
import { Input } from '../../components/FormField.tsx';

/**
 * The open project's name in the studio header. A role that may update the project renames it in
 * place: click (or Enter) to edit, Enter or leaving the field saves, Escape puts the old name back.
 */
export function ProjectName() {
  return <ProjectNameView project={useStudioStore((s) => s.project)} />;
}

export function ProjectNameView({ project }: { project: ProjectDetails | null }) {
  const [draft, setDraft] = useState<string | null>(null);
  if (!project) return <span className={styles.projectPending} aria-hidden />;
  const editable = hasPermission(project.role, 'update project');
  if (!editable) {
    return (
      <h1 className={styles.projectName} title={project.name}>
        {project.name}
      </h1>
    );
  }
  if (draft === null) {
    return (
      <h1 className={styles.projectHeading}>
        <button
          type="button"
          className={styles.projectName}
          title="Rename project"
          aria-label={`${project.name}, rename project`}
          onClick={() => setDraft(project.name)}
        >
          <span className={styles.projectText}>{project.name}</span>
          <Pencil size={14} aria-hidden className={styles.projectPencil} />
        </button>
      </h1>
    );
  }
  const save = (event?: FormEvent) => {
    event?.preventDefault();
    const name = draft.trim();
    setDraft(null);
    if (name !== project.name) void renameOpenProject(name);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      setDraft(null);
    }
  };
  return (
    <form className={styles.projectForm} onSubmit={save}>
      <Input
        className={styles.projectInput}
        aria-label="Project name"
        value={draft}
        maxLength={100}
        autoFocus
        onFocus={(e) => e.currentTarget.select()}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => save()}
      />
    </form>
  );
}
