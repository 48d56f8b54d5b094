import { randomUUID } from 'node:crypto';
import express, { Router, type Request, type Response } from 'express';
import type { Redis } from 'ioredis';
import {
  findUnsafeText,
  OnAirError,
  participantSignalSchema,
  signalingChannels,
  WHIP_PATH,
  WHIP_PUBLISH_TTL_MS,
  whipKeys,
  whipParamsSchema,
  whipQuerySchema,
  whipResourceParamsSchema,
  whipResourceSchema,
  workerSignalSchema,
  type OfferedTrack,
  type WhipResource,
  type WorkerSignal,
} from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import type { IngestService } from './ingest-service.ts';

/** How long a WHIP client waits for the worker's answer before it is told to retry. */
const ANSWER_TIMEOUT_MS = 15_000;
const SDP_LIMIT = '64kb';

/** The tracks of a WHIP offer: its video m-line is the picture, its audio m-line the sound. */
export function offeredTracks(sdp: string): OfferedTrack[] {
  const tracks: OfferedTrack[] = [];
  for (const section of sdp.split(/\r?\nm=/).slice(1)) {
    const kind = /^(video|audio)\b/.exec(section)?.[1];
    const mid = /\r?\na=mid:([^\r\n]+)/.exec(section)?.[1]?.trim();
    if (!kind || !mid || tracks.some((t) => t.type === (kind === 'video' ? 'camera' : 'microphone'))) continue;
    tracks.push({ mid, type: kind === 'video' ? 'camera' : 'microphone' });
  }
  return tracks;
}

/** `a=mid:` and `a=candidate:` lines of a trickle-ice-sdpfrag (RFC 8840), candidates with the m-line they belong to. */
export function fragmentCandidates(fragment: string): { candidate: string; sdpMid: string | null }[] {
  const out: { candidate: string; sdpMid: string | null }[] = [];
  let mid: string | null = null;
  for (const line of fragment.split(/\r?\n/)) {
    if (line.startsWith('a=mid:')) mid = line.slice('a=mid:'.length).trim();
    else if (line.startsWith('a=candidate:')) out.push({ candidate: line.slice(2).trim(), sdpMid: mid });
  }
  return out;
}

function bearerOf(req: Request): string | null {
  const header = req.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

function textBody(req: Request, type: string): string {
  if (!req.is(type)) throw new OnAirError('UNSUPPORTED_MEDIA_TYPE', `Send the body as ${type}.`);
  const body: unknown = req.body;
  if (typeof body !== 'string' || body.length === 0) throw new OnAirError('VALIDATION_FAILED', 'The request body is empty.');
  if (findUnsafeText(body)) throw new OnAirError('VALIDATION_FAILED', 'The request body holds characters that are not allowed.');
  return body;
}

function parse<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new OnAirError('NOT_FOUND');
  return parsed.data;
}

/**
 * WHIP ingest (RFC 9725) for OBS 30+, hardware encoders and browsers: POST an SDP offer with the
 * project's ingest key as bearer token and get the answer (201 + Location); PATCH trickles ICE
 * candidates; DELETE ends the feed. The media goes to the worker that owns the project's session
 * (placed here if needed), through the studio's signaling channel, and becomes the game source (or
 * the source named by `?source=`). Mounted before the JSON body parser: the bodies are SDP.
 */
export function whipRoutes(deps: { ingest: IngestService; redis: Redis; logger: Logger }): Router {
  const { ingest, redis } = deps;
  const router = Router();
  const sdpBody = express.text({ type: 'application/sdp', limit: SDP_LIMIT });
  const fragmentBody = express.text({ type: 'application/trickle-ice-sdpfrag', limit: SDP_LIMIT });

  const send = async (signal: WorkerSignal): Promise<void> => {
    await redis.publish(signalingChannels.toWorker(signal.projectId), JSON.stringify(workerSignalSchema.parse(signal)));
  };

  /** The resource of a PATCH or DELETE, with the same bearer token as its POST. */
  const resourceOf = async (req: Request): Promise<{ resource: WhipResource; resourceId: string }> => {
    const { projectId, resourceId } = parse(whipResourceParamsSchema, req.params);
    const raw = await redis.get(whipKeys.resource(resourceId));
    const resource = raw ? whipResourceSchema.safeParse(JSON.parse(raw)) : null;
    if (!resource?.success || resource.data.projectId !== projectId) throw new OnAirError('NOT_FOUND', 'This WHIP session does not exist (any more).');
    if ((await ingest.whipAuthorize(projectId, bearerOf(req))) !== resource.data.keyDigest)
      throw new OnAirError('UNAUTHENTICATED', 'The bearer token is not the ingest key of this project.');
    return { resource: resource.data, resourceId };
  };

  router.post(WHIP_PATH, sdpBody, async (req: Request, res: Response) => {
    const { projectId } = parse(whipParamsSchema, req.params);
    const keyDigest = await ingest.whipAuthorize(projectId, bearerOf(req));
    if (!keyDigest) throw new OnAirError('UNAUTHENTICATED', 'Give the ingest key shown in the studio as the bearer token.');
    const query = whipQuerySchema.safeParse(req.query);
    if (!query.success) throw new OnAirError('VALIDATION_FAILED', 'The source parameter must be a source id.');
    const sdp = textBody(req, 'application/sdp');
    const tracks = offeredTracks(sdp);
    if (tracks.length === 0) throw new OnAirError('VALIDATION_FAILED', 'The offer has no video or audio to receive.');
    if (!(await ingest.whipSession(projectId)))
      throw new OnAirError('DEPENDENCY_UNAVAILABLE', 'No media worker could take the feed now. Try again in a moment.');
    const resource = await ingest.whipStarted(projectId, keyDigest, query.data.source ?? null);
    if (!resource) throw new OnAirError('CONFLICT', 'This project already receives a feed. Stop the other encoder first.');

    const resourceId = randomUUID();
    const subscriber = redis.duplicate();
    try {
      const answer = new Promise<string>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new OnAirError('DEPENDENCY_UNAVAILABLE', 'The media worker did not answer in time. Try again.')),
          ANSWER_TIMEOUT_MS,
        );
        subscriber.on('message', (_channel: string, raw: string) => {
          const signal = participantSignalSchema.safeParse(JSON.parse(raw));
          if (!signal.success || signal.data.peerId !== resourceId) return;
          if (signal.data.type === 'answer') {
            clearTimeout(timer);
            resolve(signal.data.sdp);
          } else if (signal.data.type === 'state' && signal.data.state === 'closed') {
            clearTimeout(timer);
            reject(new OnAirError('VALIDATION_FAILED', 'The offer could not be answered: send H.264 or VP8 video and Opus audio.'));
          }
        });
      });
      await subscriber.subscribe(signalingChannels.toParticipant(resourceId));
      await send({
        type: 'offer',
        projectId,
        participantId: resourceId,
        userId: `whip-${resourceId}`,
        role: 'guest',
        peerId: resourceId,
        sdp,
        tracks,
        previewMid: null,
        guestMids: [],
        feeds: { sourceId: resource.sourceId },
      });
      const answerSdp = await answer;
      await redis.set(whipKeys.resource(resourceId), JSON.stringify(resource), 'PX', WHIP_PUBLISH_TTL_MS);
      res
        .status(201)
        .type('application/sdp')
        .set('Location', `${WHIP_PATH.replace(':projectId', projectId)}/${resourceId}`)
        .send(answerSdp);
    } catch (err) {
      await ingest.whipEnded(resource);
      throw err;
    } finally {
      subscriber.disconnect();
    }
  });

  router.patch(`${WHIP_PATH}/:resourceId`, fragmentBody, async (req: Request, res: Response) => {
    const { resource, resourceId } = await resourceOf(req);
    const candidates = fragmentCandidates(textBody(req, 'application/trickle-ice-sdpfrag'));
    for (const c of candidates) {
      await send({
        type: 'ice',
        projectId: resource.projectId,
        participantId: resourceId,
        userId: `whip-${resourceId}`,
        role: 'guest',
        peerId: resourceId,
        candidate: { candidate: c.candidate, sdpMid: c.sdpMid },
      });
    }
    res.status(204).end();
  });

  router.delete(`${WHIP_PATH}/:resourceId`, async (req: Request, res: Response) => {
    const { resource, resourceId } = await resourceOf(req);
    await send({ type: 'leave', projectId: resource.projectId, participantId: resourceId, userId: `whip-${resourceId}`, role: 'guest' });
    await redis.del(whipKeys.resource(resourceId));
    await ingest.whipEnded(resource);
    deps.logger.info({ projectId: resource.projectId }, 'whip publish ended');
    res.status(200).end();
  });

  return router;
}
