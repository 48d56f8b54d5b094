import { getCountdownEndpoint } from '@onair/protocol';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { useStudioStore } from '../stores/index.ts';

let asked = 0;

/**
 * Asks the server for the time left of the countdown scene the project shows (issue 19), whenever
 * the confirmed active scene changes: the server times it, and wrote it before it confirmed the
 * switch. The time left is kept as an end on this browser's own clock, so the studio counts down
 * without asking again; any other scene clears it.
 */
export async function followCountdown(client: HttpClient = httpClient): Promise<void> {
  const { projectId, confirmed } = useStudioStore.getState();
  const active = confirmed?.scenes.find((s) => s.id === confirmed.activeSceneId);
  const ask = ++asked;
  if (!projectId || active?.kind !== 'countdown') {
    if (useStudioStore.getState().countdown) useStudioStore.setState({ countdown: null });
    return;
  }
  try {
    const { countdown } = await call(getCountdownEndpoint, { params: { projectId } }, client);
    if (ask !== asked || useStudioStore.getState().projectId !== projectId) return;
    useStudioStore.setState({
      countdown: countdown?.sceneId === active.id ? { sceneId: countdown.sceneId, endsAt: Date.now() + countdown.remainingMs } : null,
    });
  } catch {
    // The scene shows without its time left; the next scene change asks again.
    if (ask === asked) useStudioStore.setState({ countdown: null });
  }
}
