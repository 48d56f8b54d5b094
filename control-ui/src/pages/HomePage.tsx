import { FolderOpen, Plus, Radio } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { createProject, followProjectList, loadProjects, loadSceneTemplates, selectSceneTemplate } from '../actions/projects.ts';
import { sceneTemplateIdSchema } from '@onair/protocol';
import { Button } from '../components/Button.tsx';
import { EmptyState } from '../components/EmptyState.tsx';
import { Input } from '../components/FormField.tsx';
import { Select } from '../components/Select.tsx';
import { useDocumentTitle } from '../hooks/use-document-title.ts';
import { useProjectsStore, useSessionStore } from '../stores/index.ts';
import styles from '../styles/Page.module.css';
import home from './HomePage.module.css';
import { SignedOutHome } from './SignedOutHome.tsx';

/** The studio home: the creator's projects, and a new one in one step. */
export function HomePage() {
  const { status, projects, error, templates, selectedTemplate } = useProjectsStore();
  const sessionReady = useSessionStore((s) => s.ready);
  const loggedIn = useSessionStore((s) => s.loggedIn);
  const signedOut = status === 'unauthenticated' || (sessionReady && !loggedIn);
  useDocumentTitle(signedOut ? 'Cloud streaming studio' : 'Projects');
  const navigate = useNavigate();
  const nameId = useId();
  const templateId = useId();
  const [name, setName] = useState('');
  const [creating, setCreating] = useState(false);
  // Issue 52: the projects and templates are a signed-in user's; a signed-out visitor is not asked for them (they would answer 401).
  useEffect(() => {
    if (!sessionReady || !loggedIn) return;
    void loadProjects();
    void loadSceneTemplates();
  }, [sessionReady, loggedIn]);
  // Projects made or renamed in another tab or device appear here without a reload.
  const signedIn = status === 'ready';
  useEffect(() => (signedIn ? followProjectList() : undefined), [signedIn]);
  const chosen = templates.find((t) => t.id === selectedTemplate);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setCreating(true);
    const project = await createProject(name.trim());
    setCreating(false);
    if (project) void navigate(`/studio/${project.id}`);
  };

  if (signedOut) return <SignedOutHome />;
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <h1 className={styles.title}>Projects</h1>
      </header>
      {status === 'ready' && (
        <form className={home.create} onSubmit={submit}>
          <label htmlFor={nameId} className={home.label}>
            New project
          </label>
          <Input
            id={nameId}
            className={home.name}
            maxLength={100}
            required
            placeholder="Friday stream"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
          <label htmlFor={templateId} className={home.label}>
            Template
          </label>
          <div className={home.template}>
            <Select
              id={templateId}
              value={selectedTemplate}
              options={(templates.length > 0 ? templates : [{ id: selectedTemplate }]).map((t) => ({ value: t.id, label: t.id }))}
              onValueChange={(value) => selectSceneTemplate(sceneTemplateIdSchema.parse(value))}
            />
          </div>
          <Button type="submit" variant="primary" className={home.submit} disabled={creating || name.trim() === ''}>
            <Plus size={16} aria-hidden />
            Create project
          </Button>
          {chosen && <p className={home.templateHint}>{chosen.description}</p>}
        </form>
      )}
      <section className={styles.card} aria-label="Project list">
        {status === 'ready' && projects.length > 0 ? (
          <ul className={home.list}>
            {projects.map((project) => (
              <li key={project.id}>
                <Link className={home.project} to={`/studio/${project.id}`}>
                  <span>{project.name}</span>
                  {project.live && (
                    <span className={home.live} title="This project is broadcasting now">
                      <Radio size={14} aria-hidden /> Live
                    </span>
                  )}
                  <span className={home.meta}>{project.resolution}</span>
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <EmptyState
            icon={<FolderOpen size={36} />}
            title={status === 'error' ? 'Projects could not be loaded' : status === 'ready' ? 'No projects yet' : 'Loading your projects…'}
          >
            <p>
              {status === 'error'
                ? error
                : status === 'ready'
                  ? 'Name your first project above and pick a template: Beam opens with your camera filling the frame.'
                  : null}
            </p>
          </EmptyState>
        )}
      </section>
    </div>
  );
}
