import { createProjectEndpoint, listProjectsEndpoint, projectNameSchema, renameProjectEndpoint, type ProjectSummary } from '@onair/protocol';
import { UnauthorizedError } from '../api/http-errors.ts';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { useProjectsStore, useStudioStore } from '../stores/index.ts';
import { messageOf } from './api-errors.ts';
import { showToast } from './toasts.ts';

/** Fills the project list of the home page. */
export async function loadProjects(client: HttpClient = httpClient): Promise<void> {
  useProjectsStore.setState({ status: 'loading', error: null });
  try {
    const { projects } = await call(listProjectsEndpoint, {}, client);
    useProjectsStore.setState({ status: 'ready', projects });
  } catch (err) {
    useProjectsStore.setState(err instanceof UnauthorizedError ? { status: 'unauthenticated' } : { status: 'error', error: messageOf(err) });
  }
}

/** Creates a project (one scene with the logo) and returns it, or null after telling the user why not. */
export async function createProject(name: string, client: HttpClient = httpClient): Promise<ProjectSummary | null> {
  try {
    const project = await call(createProjectEndpoint, { body: { name } }, client);
    useProjectsStore.setState((state) => ({ projects: [project, ...state.projects] }));
    return project;
  } catch (err) {
    showToast({ kind: 'error', title: 'The project was not created', description: messageOf(err) });
    return null;
  }
}

/**
 * Renames the project open in the studio. The header shows the new name at once and goes back to
 * the old one, with a toast saying why, if the server refuses it. Returns whether it was saved.
 */
export async function renameOpenProject(name: string, client: HttpClient = httpClient): Promise<boolean> {
  const project = useStudioStore.getState().project;
  if (!project) return false;
  const parsed = projectNameSchema.safeParse(name);
  if (!parsed.success) {
    showToast({ kind: 'error', title: 'The project was not renamed', description: 'A project name has 1 to 100 characters.' });
    return false;
  }
  if (parsed.data === project.name) return true;
  const isOpen = () => useStudioStore.getState().project?.id === project.id;
  useStudioStore.setState({ project: { ...project, name: parsed.data } });
  try {
    const saved = await call(renameProjectEndpoint, { params: { projectId: project.id }, body: { name: parsed.data } }, client);
    if (isOpen()) useStudioStore.setState({ project: saved });
    useProjectsStore.setState((state) => ({ projects: state.projects.map((p) => (p.id === saved.id ? { ...p, name: saved.name } : p)) }));
    return true;
  } catch (err) {
    if (isOpen()) useStudioStore.setState({ project });
    showToast({ kind: 'error', title: 'The project was not renamed', description: messageOf(err) });
    return false;
  }
}
