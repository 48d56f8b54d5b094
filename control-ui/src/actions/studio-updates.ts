// What the live channel changes in the studio besides the scene: a web page's render state, the
// project's name, and the resolutions the plan allows.
import { getResolutionChoicesEndpoint, type ServerMessage } from '@onair/protocol';
import { call } from '../api/call.ts';
import type { HttpClient } from '../api/http-client.ts';
import { useProjectsStore, useStudioStore } from '../stores/index.ts';

/** A web page's state from the render workers: the canvas shows why it is not showing, if it is not. */
export function receiveRenderStatus(message: Extract<ServerMessage, { type: 'render.status' }>): void {
  if (useStudioStore.getState().projectId !== message.projectId) return;
  useStudioStore.setState((s) => ({ renders: { ...s.renders, [message.sourceId]: { state: message.state, reason: message.reason ?? null } } }));
}

/** Another studio (or this one) renamed the project: the header and the project list follow. */
export function receiveProjectRename(message: Extract<ServerMessage, { type: 'project.renamed' }>): void {
  const { project } = useStudioStore.getState();
  if (project?.id === message.projectId && project.name !== message.name) useStudioStore.setState({ project: { ...project, name: message.name } });
  useProjectsStore.setState((state) => ({ projects: state.projects.map((p) => (p.id === message.projectId ? { ...p, name: message.name } : p)) }));
}

/** The plan changed: the server says which output resolutions may be picked now. */
export async function refreshResolutionChoices(projectId: string, client: HttpClient): Promise<void> {
  const resolution = await call(getResolutionChoicesEndpoint, { params: { projectId } }, client).catch(() => null);
  if (resolution && useStudioStore.getState().projectId === projectId) useStudioStore.setState({ resolution });
}
