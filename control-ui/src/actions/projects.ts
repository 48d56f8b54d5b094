import { createProjectEndpoint, listProjectsEndpoint, type ProjectSummary } from '@onair/protocol';
import { UnauthorizedError } from '../api/http-errors.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { useProjectsStore } from '../stores/index.ts';
import { messageOf } from './api-errors.ts';
import { showToast } from './toasts.ts';

/** Fills the project list of the home page. */
export async function loadProjects(client: HttpClient = httpClient): Promise<void> {
  useProjectsStore.setState({ status: 'loading', error: null });
  try {
    const { projects } = await client.getJson(listProjectsEndpoint.path, { response: listProjectsEndpoint.response });
    useProjectsStore.setState({ status: 'ready', projects });
  } catch (err) {
    useProjectsStore.setState(err instanceof UnauthorizedError ? { status: 'unauthenticated' } : { status: 'error', error: messageOf(err) });
  }
}

/** Creates a project (one scene with the logo) and returns it, or null after telling the user why not. */
export async function createProject(name: string, client: HttpClient = httpClient): Promise<ProjectSummary | null> {
  try {
    const project = await client.sendJson('POST', createProjectEndpoint.path, { name }, { response: createProjectEndpoint.response });
    useProjectsStore.setState((state) => ({ projects: [project, ...state.projects] }));
    return project;
  } catch (err) {
    showToast({ kind: 'error', title: 'The project was not created', description: messageOf(err) });
    return null;
  }
}
