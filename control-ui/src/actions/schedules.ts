import { cancelScheduledBroadcastEndpoint, listScheduledBroadcastsEndpoint, scheduleVideoBroadcastEndpoint, type ScheduledBroadcast } from '@onair/protocol';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { initialSchedulesState, useSchedulesStore } from '../stores/index.ts';
import { messageOf } from './api-errors.ts';
import { showToast } from './toasts.ts';

/**
 * Schedules an uploaded video to stream as live at `localTime` (a datetime-local value, the
 * creator's own clock); the server refuses in words a time past or too far ahead.
 */
export async function scheduleVideo(
  projectId: string,
  uploadId: string,
  name: string,
  localTime: string,
  client: HttpClient = httpClient,
): Promise<ScheduledBroadcast | null> {
  const at = new Date(localTime);
  if (Number.isNaN(at.getTime())) {
    showToast({ kind: 'error', title: 'Choose a date and a time' });
    return null;
  }
  try {
    const scheduled = await call(scheduleVideoBroadcastEndpoint, { params: { projectId }, body: { uploadId, startAt: at.toISOString() } }, client);
    if (useSchedulesStore.getState().projectId === projectId)
      useSchedulesStore.setState((s) => ({ scheduled: [...s.scheduled, scheduled].sort(soonestFirst) }));
    showToast({
      kind: 'success',
      title: `${name} goes live ${at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}`,
      description: 'It streams to the destinations switched on then, and ends when the video has played.',
    });
    return scheduled;
  } catch (err) {
    showToast({ kind: 'error', title: 'The broadcast could not be scheduled', description: messageOf(err) });
    return null;
  }
}

const soonestFirst = (a: ScheduledBroadcast, b: ScheduledBroadcast) => a.startAt.localeCompare(b.startAt) || a.id.localeCompare(b.id);

/** The project's scheduled broadcasts, soonest first; the list says why when they cannot be read. */
export async function loadSchedules(projectId: string, client: HttpClient = httpClient): Promise<void> {
  if (useSchedulesStore.getState().projectId !== projectId) useSchedulesStore.setState({ ...initialSchedulesState(), projectId, status: 'loading' });
  try {
    const { scheduled } = await call(listScheduledBroadcastsEndpoint, { params: { projectId } }, client);
    if (useSchedulesStore.getState().projectId !== projectId) return;
    useSchedulesStore.setState({ status: 'ready', scheduled, error: null });
  } catch (err) {
    if (useSchedulesStore.getState().projectId === projectId) useSchedulesStore.setState({ status: 'failed', error: messageOf(err) });
  }
}

/** Cancels a scheduled broadcast that has not started (the caller asked the creator first); the server refuses one already started. */
export async function cancelSchedule(projectId: string, scheduleId: string, client: HttpClient = httpClient): Promise<boolean> {
  useSchedulesStore.setState({ cancelling: scheduleId });
  try {
    await call(cancelScheduledBroadcastEndpoint, { params: { projectId, scheduleId } }, client);
    useSchedulesStore.setState((s) => ({ scheduled: s.scheduled.map((b) => (b.id === scheduleId ? { ...b, state: 'cancelled' as const } : b)) }));
    showToast({ kind: 'success', title: 'Scheduled broadcast cancelled' });
    return true;
  } catch (err) {
    showToast({ kind: 'error', title: 'The broadcast could not be cancelled', description: messageOf(err) });
    // It may have started meanwhile: show it as it is now.
    await loadSchedules(projectId, client);
    return false;
  } finally {
    useSchedulesStore.setState({ cancelling: null });
  }
}
