// Where a flow reads what a project streams on this machine: a project's Local stream (its own
// stream name, as the studio gets it from GET …/local-stream) and a test-mode Twitch channel's
// stream (the local RTMP server under the key the Twitch double gave that channel).
import { expect, type APIRequestContext } from '@playwright/test';
import type { DestinationList, LocalStream } from '@onair/protocol';

/** The play address of the project's (first) Local destination: `rtmp://127.0.0.1:<port>/live/local_…`. */
export async function localStreamUrl(request: APIRequestContext, projectId: string, origin = ''): Promise<string> {
  const list = await request.get(`${origin}/api/v1/projects/${projectId}/destinations`);
  expect(list.ok(), `destinations: ${list.status()}`).toBe(true);
  const local = ((await list.json()) as DestinationList).destinations.find((d) => d.type === 'Local');
  if (!local) throw new Error(`project ${projectId} has no Local destination`);
  const res = await request.get(`${origin}/api/v1/projects/${projectId}/destinations/${local.id}/local-stream`);
  expect(res.ok(), `local-stream: ${res.status()}`).toBe(true);
  return ((await res.json()) as LocalStream).playUrl;
}

/** Where the test-mode Twitch channel `login` (signed in on the double's consent page) streams to. */
export async function twitchTestStreamUrl(login: string): Promise<string> {
  const eventSub = process.env.ONAIR_E2E_EVENTSUB;
  if (!eventSub) throw new Error('ONAIR_E2E_EVENTSUB is not set (global-setup sets it when it starts the stack)');
  const res = await fetch(`${eventSub}/_double/stream-url`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login }),
  });
  expect(res.ok, `stream-url: ${res.status}`).toBe(true);
  const url = ((await res.json()) as { result: string | null }).result;
  if (!url) throw new Error(`the Twitch double knows no test-mode channel ${login}`);
  return url;
}
