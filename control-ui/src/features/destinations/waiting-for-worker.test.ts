// A broadcast the api counts as live while no media worker runs the session (every worker full):
// the studio must not pass the timer off as air time (the 'live with no pipeline' of stop 59's CI).
import { beforeEach, describe, expect, it } from 'vitest';
import { enterRoom, leaveRoom, receiveRoomMessage } from '../../actions/media.ts';
import { notOnAirNotice } from '../../model/destinations.ts';
import { useMediaStore } from '../../stores/index.ts';

const projectId = '3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b';
const waiting = () => useMediaStore.getState().waitingForWorkerSince !== null;

describe('a session waiting for a media worker', () => {
  beforeEach(() => {
    leaveRoom();
    enterRoom(projectId, () => undefined);
  });

  it('is said while live or starting until a worker takes the session, then no more', () => {
    expect(notOnAirNotice('live', waiting())).toBeNull();
    receiveRoomMessage({ type: 'room.waiting', projectId, waitingSinceMs: 4200 });
    const since = useMediaStore.getState().waitingForWorkerSince;
    expect(Date.now() - since!).toBeGreaterThanOrEqual(4200);
    expect(notOnAirNotice('live', waiting())).toBe('Not on air yet: every media worker is busy. Your destinations start as soon as one takes the show.');
    expect(notOnAirNotice('starting', waiting())).not.toBeNull();
    // Ending, or not live at all: nothing to say under a timer.
    expect(notOnAirNotice('ending', waiting())).toBeNull();
    expect(notOnAirNotice(undefined, waiting())).toBeNull();
    receiveRoomMessage({ type: 'room.ready', projectId, workerId: 'w-1' });
    expect(waiting()).toBe(false);
    // The page would now publish to the worker (a browser's peer connection, not this test's): it leaves first.
    leaveRoom();
    expect(notOnAirNotice('live', waiting())).toBeNull();
  });

  it("ignores another project's wait, and a room joined again starts without one", () => {
    receiveRoomMessage({ type: 'room.waiting', projectId: '00000000-0000-4000-8000-000000000000', waitingSinceMs: 5000 });
    expect(waiting()).toBe(false);
    receiveRoomMessage({ type: 'room.waiting', projectId, waitingSinceMs: 5000 });
    enterRoom(projectId, () => undefined);
    expect(waiting()).toBe(false);
  });
});
