// Where a project's own Local stream is read (issue 51): each project's Local destination has a
// stream name of its own, which the api tells the project's hosts.
import { expect, type APIRequestContext } from '@playwright/test';
import type { LocalStream } from '@onair/protocol';

/** The RTMP address of the project's Local destination (its own stream name), as the studio shows it. */
export async function localStreamUrl(request: APIRequestContext, projectId: string, origin = ''): Promise<string> {
  const list = (await (await request.get(`${origin}/api/v1/projects/${projectId}/destinations`)).json()) as { destinations: { id: string; type: string }[] };
  const local = list.destinations.find((d) => d.type === 'Local');
  if (!local) throw new Error(`project ${projectId} has no Local destination`);
  const res = await request.get(`${origin}/api/v1/projects/${projectId}/destinations/${local.id}/local-stream`);
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as LocalStream).playUrl;
}
