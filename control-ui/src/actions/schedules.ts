import { scheduleVideoBroadcastEndpoint, type ScheduledBroadcast } from '@onair/protocol';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { messageOf } from './api-errors.ts';
import { showToast } from './toasts.ts';

/**
 * Schedules an uploaded video to stream as live at `localTime` (a datetime-local value, the
 * creator's own clock); the server refuses in words a time past or too far ahead.
 */
export async function scheduleVideo(projectId: string, uploadId: string, name: string, localTime: string, client: HttpClient = httpClient): Promise<ScheduledBroadcast | null> {
  const at = new Date(localTime);
  if (Number.isNaN(at.getTime())) {
    showToast({ kind: 'error', title: 'Choose a date and a time' });
    return null;
  }
  try {
    const scheduled = await client.sendJson('POST', scheduleVideoBroadcastEndpoint.path.replace(':projectId', encodeURIComponent(projectId)), { uploadId, startAt: at.toISOString() }, { response: scheduleVideoBroadcastEndpoint.response });
    showToast({ kind: 'success', title: `${name} goes live ${at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}`, description: 'It streams to the destinations switched on then, and ends when the video has played.' });
    return scheduled;
  } catch (err) {
    showToast({ kind: 'error', title: 'The broadcast could not be scheduled', description: messageOf(err) });
    return null;
  }
}
