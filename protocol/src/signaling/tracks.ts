import { z } from 'zod';

/** Track types of spec §3: what a participant's browser publishes. */
export const trackTypes = ['camera', 'microphone', 'screen_share', 'screen_share_audio'] as const;
export const trackTypeSchema = z.enum(trackTypes);
export type TrackType = z.infer<typeof trackTypeSchema>;

export const trackKindOf: Record<TrackType, 'video' | 'audio'> = {
  camera: 'video',
  microphone: 'audio',
  screen_share: 'video',
  screen_share_audio: 'audio',
};

/** Which m-line of an offer carries which track: the browser knows, the SDP does not say. */
export const offeredTrackSchema = z.strictObject({ mid: z.string().min(1).max(32), type: trackTypeSchema });
export type OfferedTrack = z.infer<typeof offeredTrackSchema>;
