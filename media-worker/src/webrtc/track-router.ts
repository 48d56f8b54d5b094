import { sourceKindInfo, type SceneDocument, type Source, type TrackType } from '@onair/protocol';

export interface Publisher {
  userId: string;
  /** The project owner's tracks also feed sources assigned to nobody (a new Camera source has no user). */
  isHost: boolean;
  /** A WHIP publisher: its camera and microphone feed the game sources, or the one source chosen. */
  feeds?: { sourceId: string | null };
  /** A guest of the room (role guest): their camera goes on the guest tiles. A co-host's never does. */
  guest?: boolean;
}

/** Whose camera the studios show on their guest tiles: a guest's, not the owner's, a co-host's or an encoder's. */
export function onGuestTiles(who: Publisher): boolean {
  return who.guest === true && !who.feeds;
}

/** Whose studio shows the guest tiles: a person of the room who is not a guest and asked for tiles (the host's and co-hosts' pages). */
export function seesGuestTiles(who: Publisher, slots: number): boolean {
  return slots > 0 && who.guest !== true && !who.feeds;
}

export interface TrackTarget {
  sourceId: string;
  media: 'video' | 'audio';
}

/**
 * Which sources of the scene a participant's track feeds (issue 6: matched by participant and
 * track type). A microphone goes to the user's Audio sources, or, when there is none, into the
 * sound of their Camera sources, never both, so the voice is not mixed in twice.
 */
export function routeTrack(doc: SceneDocument, who: Publisher, type: TrackType): TrackTarget[] {
  if (who.feeds) return routeWhipTrack(doc, who.feeds.sourceId, type);
  const mine = (source: Source): boolean => {
    const userId = (source.settings as { userId?: string | null }).userId ?? null;
    return userId === who.userId || (userId === null && who.isHost);
  };
  const guestOf = (source: Source): boolean => source.kind === 'participant' && (source.settings as { userId?: string | null }).userId === who.userId;
  const of = (kind: Source['kind']) => doc.sources.filter((s) => s.kind === kind && mine(s));
  const to = (sources: Source[], media: TrackTarget['media']) => sources.map((s) => ({ sourceId: s.id, media }));
  const guests = doc.sources.filter(guestOf);
  switch (type) {
    case 'camera':
      return [...to(of('webcam'), 'video'), ...to(guests, 'video')];
    case 'microphone': {
      const mics = of('microphone');
      return [...to(mics.length > 0 ? mics : of('webcam'), 'audio'), ...to(guests, 'audio')];
    }
    case 'screen_share':
      return to(of('screenshare'), 'video');
    case 'screen_share_audio':
      return to(of('screenshare'), 'audio');
  }
}

/** The source kinds fed by WebRTC tracks, with the media each takes. */
export const liveSourceMedia: Partial<Record<Source['kind'], { video: boolean; audio: boolean }>> = {
  webcam: { video: true, audio: true },
  screenshare: { video: true, audio: true },
  microphone: { video: false, audio: true },
  participant: { video: true, audio: true },
};

/** A WHIP feed (issue 18): video and sound into the game sources, or into the one source chosen for it. */
function routeWhipTrack(doc: SceneDocument, sourceId: string | null, type: TrackType): TrackTarget[] {
  const media: TrackTarget['media'] | null =
    type === 'camera' || type === 'screen_share' ? 'video' : type === 'microphone' || type === 'screen_share_audio' ? 'audio' : null;
  if (!media) return [];
  const chosen = sourceId ? doc.sources.filter((s) => s.id === sourceId) : doc.sources.filter((s) => s.kind === 'game');
  return chosen
    .filter(
      (s) =>
        (media === 'video' ? sourceKindInfo[s.kind].hasVideo : sourceKindInfo[s.kind].hasAudio) &&
        s.kind !== 'webpage' &&
        s.kind !== 'watermark' &&
        s.kind !== 'image',
    )
    .map((s) => ({ sourceId: s.id, media }));
}
