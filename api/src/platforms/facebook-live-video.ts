import { z } from 'zod';
import type { Logger } from '@onair/runtime';
import { nextBackoff, sleep } from './connector-kit.ts';
import { platformCall, PlatformCallError } from './platform-http.ts';

const liveVideosSchema = z.object({ data: z.array(z.object({ id: z.string(), status: z.string().optional() }).loose()).default([]) }).loose();

/** Where the loop stands, for its connector to tell its owner in its own states. */
export type FacebookLivePhase = { phase: 'waiting' } | { phase: 'ended' } | { phase: 'needs-sign-in' } | { phase: 'retrying'; rateLimited: boolean };

export interface FacebookLiveVideoLoop {
  /** The page, group, event or account whose live video is read. */
  ownerId: string;
  config: { FACEBOOK_GRAPH_URL: string; CHAT_NOT_LIVE_RETRY_MS: number; CHAT_ERROR_RETRY_MS: number };
  tokens: { current(): Promise<string | null>; refresh(): Promise<string | null> };
  logger: Logger;
  /** The log lines' fields and name ('facebook chat'). */
  where: Record<string, unknown>;
  what: string;
  signal: AbortSignal;
  /** Reads one live video's stream until it ends; a PlatformCallError carries the status of a failure. */
  stream(videoId: string, token: string, signal: AbortSignal): Promise<void>;
  onPhase(phase: FacebookLivePhase): void;
}

/**
 * What Facebook's live comments and live reactions both do until stopped: find the owner's LIVE
 * live video through the Graph API (asked again after CHAT_NOT_LIVE_RETRY_MS while there is none),
 * read its stream until it ends or breaks (then again, backing off from 1 s up to
 * CHAT_ERROR_RETRY_MS); a 401 refreshes the token once, and a refused refresh is 'needs sign-in',
 * tried again after CHAT_ERROR_RETRY_MS.
 */
export async function runFacebookLiveVideo(loop: FacebookLiveVideoLoop): Promise<void> {
  const { signal, config } = loop;
  let backoff = 0;
  let refreshed = false;
  while (!signal.aborted) {
    try {
      const token = refreshed ? await loop.tokens.refresh() : await loop.tokens.current();
      if (!token) throw new PlatformCallError(401, 'no token');
      const query = new URLSearchParams({ broadcast_status: '["LIVE"]', fields: 'id,status' });
      const videos = liveVideosSchema.parse(
        await platformCall(`${config.FACEBOOK_GRAPH_URL}/${encodeURIComponent(loop.ownerId)}/live_videos?${query.toString()}`, { token }),
      );
      const video = videos.data.find((v) => (v.status ?? 'LIVE') === 'LIVE');
      if (!video) {
        loop.onPhase({ phase: 'waiting' });
        await sleep(config.CHAT_NOT_LIVE_RETRY_MS, signal);
        continue;
      }
      await loop.stream(video.id, token, signal);
      refreshed = false;
      backoff = 0;
      if (!signal.aborted) loop.onPhase({ phase: 'ended' });
    } catch (err) {
      if (signal.aborted) return;
      const status = err instanceof PlatformCallError ? err.status : 0;
      if (status === 401 && !refreshed) {
        refreshed = true;
        continue;
      }
      if (status === 401) {
        loop.onPhase({ phase: 'needs-sign-in' });
        await sleep(config.CHAT_ERROR_RETRY_MS, signal);
        refreshed = false;
        continue;
      }
      backoff = nextBackoff(backoff, config.CHAT_ERROR_RETRY_MS);
      loop.logger.info({ ...loop.where, status, retryInMs: backoff, err: (err as Error).message }, `${loop.what} failed; retrying`);
      loop.onPhase({ phase: 'retrying', rateLimited: status === 429 });
      await sleep(backoff, signal);
    }
  }
}

/** What a connector shows while retrying. */
export function facebookRetryText(rateLimited: boolean): string {
  return rateLimited ? 'Facebook is limiting requests. Retrying…' : 'Facebook did not answer. Retrying…';
}
