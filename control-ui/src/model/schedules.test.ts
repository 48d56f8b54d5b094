import { describe, expect, it } from 'vitest';
import type { ScheduledBroadcast } from '@onair/protocol';
import { upcoming } from './schedules.ts';

const schedule = (id: string, state: ScheduledBroadcast['state'], startAt: string): ScheduledBroadcast => ({
  id: `00000000-0000-4000-8000-0000000000${id}`,
  projectId: '00000000-0000-4000-8000-0000000000aa',
  uploadId: '00000000-0000-4000-8000-0000000000ee',
  startAt,
  state,
  failureReason: state === 'failed' ? 'The project was already live at the scheduled time.' : null,
  broadcastId: null,
});

describe('scheduled broadcasts worth listing', () => {
  it('shows what is to come, what is on air and what failed in the last day, not what is over', () => {
    const now = Date.parse('2099-01-03T10:00:00.000Z');
    const list = [
      schedule('c1', 'done', '2099-01-02T09:00:00.000Z'),
      schedule('c2', 'cancelled', '2099-01-04T09:00:00.000Z'),
      schedule('c3', 'failed', '2099-01-03T09:00:00.000Z'),
      schedule('c4', 'failed', '2099-01-01T09:00:00.000Z'),
      schedule('c5', 'live', '2099-01-03T09:59:00.000Z'),
      schedule('c6', 'scheduled', '2099-01-05T09:00:00.000Z'),
    ];
    expect(upcoming(list, now).map((s) => s.id.slice(-2))).toEqual(['c3', 'c5', 'c6']);
  });
});
