import { describe, expect, it } from 'vitest';
import { newProjectDocument, type SceneDocument, type Source } from '@onair/protocol';
import { onGuestTiles, routeTrack, seesGuestTiles } from './track-router.ts';

const ids = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function documentWith(sources: Source[]): SceneDocument {
  const doc = newProjectDocument({ projectId: ids(1), sceneId: ids(2), watermarkSourceId: ids(3), watermarkLayerId: ids(4), resolution: '720p' });
  return { ...doc, sources: [...doc.sources, ...sources] };
}

const game: Source = {
  id: ids(10),
  kind: 'game',
  name: 'Game Source',
  settings: { opacity: 1, volume: 1, muted: false, participantId: null, displayName: '' },
};
const camera: Source = {
  id: ids(11),
  kind: 'webcam',
  name: 'Camera',
  settings: { opacity: 1, volume: 1, muted: false, webcamDeviceId: null, microphoneDeviceId: 'default', displayName: '', userId: null, mirrorCamera: false },
};

describe('routeTrack for a WHIP publisher', () => {
  const doc = documentWith([game, camera]);

  it("feeds the game sources with its video and sound, not the host's camera", () => {
    const whip = { userId: 'whip-1', isHost: false, feeds: { sourceId: null } };
    expect(routeTrack(doc, whip, 'camera')).toEqual([{ sourceId: game.id, media: 'video' }]);
    expect(routeTrack(doc, whip, 'microphone')).toEqual([{ sourceId: game.id, media: 'audio' }]);
  });

  it('feeds the one source the creator chose instead', () => {
    const whip = { userId: 'whip-1', isHost: false, feeds: { sourceId: camera.id } };
    expect(routeTrack(doc, whip, 'camera')).toEqual([{ sourceId: camera.id, media: 'video' }]);
    // The watermark has no live input: choosing it feeds nothing.
    expect(routeTrack(doc, { ...whip, feeds: { sourceId: ids(3) } }, 'camera')).toEqual([]);
  });

  it('leaves the host routing as it was', () => {
    expect(routeTrack(doc, { userId: 'host', isHost: true }, 'camera')).toEqual([{ sourceId: camera.id, media: 'video' }]);
  });
});

describe('guest tiles (issue 39: a co-host is not a guest)', () => {
  it('puts a guest’s camera on the tiles, never the owner’s, a co-host’s or an encoder’s', () => {
    expect(onGuestTiles({ userId: 'g', isHost: false, guest: true })).toBe(true);
    expect(onGuestTiles({ userId: 'owner', isHost: true, guest: false })).toBe(false);
    expect(onGuestTiles({ userId: 'cohost', isHost: false, guest: false })).toBe(false);
    expect(onGuestTiles({ userId: 'whip-1', isHost: false, feeds: { sourceId: null } })).toBe(false);
  });
  it('shows the tiles to the host and co-hosts who asked for them, not to guests', () => {
    expect(seesGuestTiles({ userId: 'owner', isHost: true, guest: false }, 10)).toBe(true);
    expect(seesGuestTiles({ userId: 'cohost', isHost: false, guest: false }, 10)).toBe(true);
    expect(seesGuestTiles({ userId: 'cohost', isHost: false, guest: false }, 0)).toBe(false);
    expect(seesGuestTiles({ userId: 'g', isHost: false, guest: true }, 10)).toBe(false);
  });
});
