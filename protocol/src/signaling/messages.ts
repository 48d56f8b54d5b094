import { z } from 'zod';
import { iceServersSchema } from './ice.ts';
import { projectRoleSchema } from './roles.ts';
import { offeredTrackSchema } from './tracks.ts';

/**
 * Signaling of the studio's WebRTC peers (ARCHITECTURE "The studio session" step 3): the browser
 * talks to the api over `/ws`, the api relays to the worker that owns the project's session over
 * Redis, and media then flows browser ↔ worker directly. A `peerId` names one RTCPeerConnection of
 * the page, so answers to an offer the page already replaced are recognised and dropped.
 */

const sdp = z
  .string()
  .min(1)
  .max(64 * 1024);
const peerId = z.string().min(1).max(64);

export const iceCandidateSchema = z.strictObject({
  candidate: z.string().max(2048),
  sdpMid: z.string().max(32).nullable().optional(),
  sdpMLineIndex: z.number().int().min(0).max(64).nullable().optional(),
});
export type IceCandidate = z.infer<typeof iceCandidateSchema>;

/** Connection state of a participant's media, as the studio shows it (issue 6, item 4). */
export const roomConnectionStates = ['connecting', 'connected', 'reconnecting', 'closed'] as const;
export const roomConnectionStateSchema = z.enum(roomConnectionStates);
export type RoomConnectionState = z.infer<typeof roomConnectionStateSchema>;

// ─── Browser → api (`/ws`) ───

export const roomClientMessageSchemas = [
  /** Join the room of a project: needs the 'join room' permission; the api opens the session if needed. */
  z.strictObject({ type: z.literal('room.join'), projectId: z.uuid() }),
  z.strictObject({
    type: z.literal('room.offer'),
    projectId: z.uuid(),
    peerId,
    sdp,
    tracks: z.array(offeredTrackSchema).max(8),
    /** The page's receive-only video m-line for the program preview. */
    previewMid: z.string().min(1).max(32).nullable(),
    /** Receive-only video m-lines for the guests' cameras (the host's Guests tab tiles); spec §6 allows 10 guests. */
    guestMids: z.array(z.string().min(1).max(32)).max(10).default([]),
  }),
  z.strictObject({ type: z.literal('room.ice'), projectId: z.uuid(), peerId, candidate: iceCandidateSchema }),
  z.strictObject({ type: z.literal('room.leave'), projectId: z.uuid() }),
] as const;

/** A guest's camera forwarded to the host on one of its receive-only m-lines. */
export const guestTileSchema = z.strictObject({ mid: z.string().min(1).max(32), participantId: z.uuid(), userId: z.string().min(1).max(128) });
export type GuestTile = z.infer<typeof guestTileSchema>;

/**
 * The picture a publisher's camera needs to be sent at (issue 41): the largest box any of its
 * sources fills in the program, in output pixels, never below a floor (see sessions/send-size.ts).
 * The page scales its camera's encoding down to it (RTCRtpSender scaleResolutionDownBy), so a
 * guest in a grid tile is not sent, decoded and scaled down at full size.
 */
export const sendSizeSchema = z.strictObject({ width: z.number().int().min(2).max(7680), height: z.number().int().min(2).max(4320) });
export type SendSize = z.infer<typeof sendSizeSchema>;

// ─── api → browser ───

export const roomServerMessageSchemas = [
  /** Joined, with the ICE servers the page's peer connection uses (none: host candidates only). */
  z.strictObject({
    type: z.literal('room.joined'),
    projectId: z.uuid(),
    participantId: z.uuid(),
    role: projectRoleSchema,
    iceServers: iceServersSchema.default([]),
  }),
  /** The session's worker is known and ready for an offer (sent again when the session moved). */
  z.strictObject({ type: z.literal('room.ready'), projectId: z.uuid(), workerId: z.string() }),
  /**
   * No media worker has room for the session yet (every one is full): it waits in the queue, for
   * this long so far. Sent once when the wait is seen; `room.ready` ends it. The studio says so,
   * so a creator who goes live meanwhile knows nothing is on air until a worker takes the session.
   */
  z.strictObject({ type: z.literal('room.waiting'), projectId: z.uuid(), waitingSinceMs: z.number().int().nonnegative() }),
  z.strictObject({ type: z.literal('room.answer'), projectId: z.uuid(), peerId, sdp }),
  z.strictObject({ type: z.literal('room.state'), projectId: z.uuid(), peerId, state: roomConnectionStateSchema }),
  /** Which guest's camera plays on which of the page's guest m-lines. */
  z.strictObject({ type: z.literal('room.tiles'), projectId: z.uuid(), peerId, tiles: z.array(guestTileSchema).max(10) }),
  /** The size the page's camera should be sent at now (sent when it changes). */
  z.strictObject({ type: z.literal('room.sendSize'), projectId: z.uuid(), peerId, camera: sendSizeSchema }),
] as const;

// ─── api ↔ owning worker (Redis pub/sub) ───

const participant = {
  projectId: z.uuid(),
  participantId: z.uuid(),
  userId: z.string().min(1).max(128),
  role: projectRoleSchema,
};

export const workerSignalSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('offer'),
    ...participant,
    peerId,
    sdp,
    tracks: z.array(offeredTrackSchema).max(8),
    previewMid: z.string().min(1).max(32).nullable(),
    guestMids: z.array(z.string().min(1).max(32)).max(10).default([]),
    /**
     * A WHIP publisher (an encoder, not a person): its video and sound feed the project's game
     * sources, or the one source chosen (`sourceId`), instead of its own camera and microphone.
     */
    feeds: z.strictObject({ sourceId: z.uuid().nullable() }).optional(),
  }),
  z.strictObject({ type: z.literal('ice'), ...participant, peerId, candidate: iceCandidateSchema }),
  z.strictObject({ type: z.literal('leave'), ...participant }),
]);
export type WorkerSignal = z.infer<typeof workerSignalSchema>;

export const participantSignalSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('answer'), projectId: z.uuid(), participantId: z.uuid(), peerId, sdp, workerId: z.string() }),
  z.strictObject({ type: z.literal('state'), projectId: z.uuid(), participantId: z.uuid(), peerId, state: roomConnectionStateSchema, workerId: z.string() }),
  z.strictObject({
    type: z.literal('tiles'),
    projectId: z.uuid(),
    participantId: z.uuid(),
    peerId,
    tiles: z.array(guestTileSchema).max(10),
    workerId: z.string(),
  }),
  z.strictObject({ type: z.literal('sendSize'), projectId: z.uuid(), participantId: z.uuid(), peerId, camera: sendSizeSchema, workerId: z.string() }),
]);
export type ParticipantSignal = z.infer<typeof participantSignalSchema>;

/** Redis channels of signaling; the only place these strings are spelled. */
export const signalingChannels = {
  /** Subscribed by the worker that owns the project's session. */
  toWorker: (projectId: string) => `onair:signaling:${projectId}:worker`,
  /** Subscribed by the api replica holding the participant's socket. */
  toParticipant: (participantId: string) => `onair:signaling:participant:${participantId}`,
} as const;
