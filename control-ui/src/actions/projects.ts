import {
  copySceneTemplateEndpoint,
  createProjectEndpoint,
  listProjectsEndpoint,
  listSceneTemplatesEndpoint,
  projectNameSchema,
  renameProjectEndpoint,
  type ProjectSummary,
  type SceneTemplateId,
  type ServerMessage,
} from '@onair/protocol';
import { connectStudioSocket, type StudioSocket, type StudioSocketHandlers } from '../api/studio-socket.ts';
import { UnauthorizedError } from '../api/http-errors.ts';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { useProjectsStore, useStudioStore } from '../stores/index.ts';
import { messageOf } from './api-errors.ts';
import { receivePatch } from './scene-document.ts';
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

/** The scene templates (spec "list templates") for the new-project form and the studio's Add template. */
export async function loadSceneTemplates(client: HttpClient = httpClient): Promise<void> {
  if (useProjectsStore.getState().templates.length > 0) return;
  try {
    const { templates } = await call(listSceneTemplatesEndpoint, {}, client);
    useProjectsStore.setState({ templates });
  } catch (err) {
    // The form still works: it sends the default template ('Beam').
    if (!(err instanceof UnauthorizedError)) showToast({ kind: 'warning', title: 'Templates could not be loaded', description: messageOf(err) });
  }
}

/** A project made or renamed in another tab or on another device: the list shows it without a reload. */
export function receiveProjectListChange(message: Extract<ServerMessage, { type: 'projects.changed' }>): void {
  useProjectsStore.setState((state) => {
    const listed = state.projects.some((p) => p.id === message.project.id);
    if (message.change === 'created') return listed ? {} : { projects: [message.project, ...state.projects] };
    return { projects: state.projects.map((p) => (p.id === message.project.id ? { ...p, name: message.project.name } : p)) };
  });
}

/**
 * While the Projects page is open its list follows the user's changes made elsewhere, pushed over
 * `/ws`; after a reconnect it is read again, since what happened meanwhile is not replayed.
 * Returns the stop.
 */
export function followProjectList(
  client: HttpClient = httpClient,
  connect: (handlers: StudioSocketHandlers) => StudioSocket = connectStudioSocket,
): () => void {
  const socket = connect({
    onOpen() {},
    onMessage(message) {
      // Each `ready` (the first and after every reconnect) comes once the socket's pushes are
      // subscribed: a change made before that (while the page's first read was under way, or while
      // the socket was away) reached no socket, so the list is read again then.
      if (message.type === 'ready') void refreshProjects(client);
      if (message.type === 'projects.changed') receiveProjectListChange(message);
    },
    onClose() {},
  });
  return () => socket.close();
}

/** Reads the list again without showing it as loading (a catch-up, not a first load). */
async function refreshProjects(client: HttpClient): Promise<void> {
  try {
    const { projects } = await call(listProjectsEndpoint, {}, client);
    useProjectsStore.setState({ projects });
  } catch {
    // The list stays as it was; the next reconnect or visit reads it again.
  }
}

export function selectSceneTemplate(templateId: SceneTemplateId): void {
  useProjectsStore.setState({ selectedTemplate: templateId });
}

/** Creates a project from the selected template and returns it, or null after telling the user why not. */
export async function createProject(name: string, client: HttpClient = httpClient): Promise<ProjectSummary | null> {
  try {
    const project = await call(createProjectEndpoint, { body: { name, template: useProjectsStore.getState().selectedTemplate } }, client);
    // The api's echo (projects.changed) may come first: the project is listed once.
    useProjectsStore.setState((state) => ({ projects: [project, ...state.projects.filter((p) => p.id !== project.id)] }));
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

/**
 * Copies a template's scenes into the project open in the studio (spec "copy templates"); the new
 * scenes arrive as a scene patch, through the same path as any other studio's edit.
 */
export async function addTemplateToProject(templateId: SceneTemplateId, client: HttpClient = httpClient): Promise<boolean> {
  const projectId = useStudioStore.getState().projectId;
  if (!projectId) return false;
  try {
    const accepted = await call(copySceneTemplateEndpoint, { params: { projectId }, body: { templateId } }, client);
    if (useStudioStore.getState().projectId === projectId)
      receivePatch({ type: 'scene.patched', projectId, version: accepted.version, ops: accepted.ops }, client);
    showToast({ kind: 'success', title: `${templateId} added`, description: 'Its scenes are at the end of your scene list.' });
    return true;
  } catch (err) {
    showToast({ kind: 'warning', title: 'The template was not added', description: messageOf(err) });
    return false;
  }
}
