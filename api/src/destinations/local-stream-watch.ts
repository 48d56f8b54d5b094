import { Readable } from 'node:stream';
import type { Router } from 'express';
import { isUuid, LOCAL_STREAM_WATCH_PATH, OnAirError } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { projectAccessOf } from '../access/project-access.ts';
import { getCurrentUser } from '../http/auth-context.ts';
import type { LocalStreams } from './local-streams.ts';
import type { DestinationService } from './destination-service.ts';

const PLAYLIST = 'index.m3u8';
/** A segment as the browser names it: `seg-<n>.ts`, the RTMP server's `<n>.ts` in the stream's folder. */
const SEGMENT = /^seg-(\d{1,12})\.ts$/;
const UPSTREAM_TIMEOUT_MS = 5000;

const NO_SUCH_FILE = 'The Watch player has no such file: ask for index.m3u8 or one of the segments it lists.';

/** Where a Local destination's HLS files are on the RTMP server (`hls_nested`: one folder per stream name). */
export function hlsFolderUrl(hlsBaseUrl: string, streamName: string): string {
  return `${hlsBaseUrl.replace(/\/+$/, '')}/${encodeURIComponent(streamName)}`;
}

/**
 * The RTMP server's playlist as the browser gets it: every segment renamed `seg-<n>.ts` (served by
 * the same route), so the stream name (the Local stream's key) never reaches the page. A line the
 * server should not have written (another URI, an absolute address) is dropped with the `#EXTINF`
 * before it rather than passed on.
 */
export function rewriteWatchPlaylist(playlist: string, streamName: string): string {
  const out: string[] = [];
  for (const raw of playlist.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      out.push(line);
      continue;
    }
    // `<n>.ts` nested; `<name>-<n>.ts` when the server writes one flat folder.
    const n =
      /^(\d{1,12})\.ts$/.exec(line)?.[1] ?? (line.startsWith(`${streamName}-`) ? /^(\d{1,12})\.ts$/.exec(line.slice(streamName.length + 1))?.[1] : undefined);
    if (n === undefined) {
      if (out.at(-1)?.startsWith('#EXTINF')) out.pop();
      continue;
    }
    out.push(`seg-${n}.ts`);
  }
  return `${out.join('\n')}\n`;
}

export interface LocalStreamWatchDeps {
  destinations: DestinationService;
  /** The Local destination's stream name (unsealed on the server, never sent to the page). */
  names: Pick<LocalStreams, 'nameOf'>;
  /** `LOCAL_RTMP_HLS_URL`: the RTMP server's HLS folder over HTTP; without it there is nothing to watch. */
  hlsBaseUrl: string | undefined;
  logger: Logger;
}

/**
 * The studio's Watch player of a Local destination (`LOCAL_STREAM_WATCH_PATH`): the HLS playlist and
 * segments the local RTMP server writes for the destination's stream, fetched from it on loopback
 * and handed to a signed-in caller who may manage the project's broadcasts (404 for anyone else,
 * as for every destination). The playlist is never cached; segments never change once listed.
 */
export function mountLocalStreamWatch(router: Router, deps: LocalStreamWatchDeps): void {
  router.get(LOCAL_STREAM_WATCH_PATH, async (req, res) => {
    const user = getCurrentUser(req);
    const { projectId, destinationId, file } = req.params as { projectId: string; destinationId: string; file: string };
    if (!isUuid(projectId) || !isUuid(destinationId)) throw new OnAirError('NOT_FOUND', 'This destination does not exist.');
    await projectAccessOf(res).require(user, projectId, 'manage broadcast');
    const row = await deps.destinations.get(user, projectId, destinationId);
    if (row.type !== 'Local') throw new OnAirError('NOT_FOUND', 'This destination is not a Local destination.');
    const name = await deps.names.nameOf(row);
    const segment = SEGMENT.exec(file)?.[1];
    if (file !== PLAYLIST && segment === undefined) throw new OnAirError('NOT_FOUND', NO_SUCH_FILE, { file });
    if (!deps.hlsBaseUrl) throw new OnAirError('LOCAL_STREAM_NOT_WATCHABLE');

    const upstreamUrl = `${hlsFolderUrl(deps.hlsBaseUrl, name)}/${segment === undefined ? PLAYLIST : `${segment}.ts`}`;
    let upstream: Response;
    try {
      upstream = await fetch(upstreamUrl, { signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS) });
    } catch (err) {
      // The address carries the stream name: log the kind of failure only.
      deps.logger.warn({ destinationId, err: (err as Error).name }, 'the local RTMP server did not answer for HLS');
      throw new OnAirError('DEPENDENCY_UNAVAILABLE', 'The local RTMP server did not answer. Try again in a moment.');
    }
    if (upstream.status === 404) {
      await upstream.body?.cancel();
      throw segment === undefined
        ? new OnAirError('LOCAL_STREAM_NOT_LIVE')
        : new OnAirError('NOT_FOUND', 'This part of the stream is gone: the player moves on to a newer one.');
    }
    if (!upstream.ok || !upstream.body) {
      await upstream.body?.cancel();
      deps.logger.warn({ destinationId, status: upstream.status }, 'the local RTMP server refused an HLS file');
      throw new OnAirError('DEPENDENCY_UNAVAILABLE', 'The local RTMP server did not answer. Try again in a moment.');
    }
    res.set({ 'x-content-type-options': 'nosniff', 'cross-origin-resource-policy': 'same-origin' });
    if (segment === undefined) {
      res
        .status(200)
        .type('application/vnd.apple.mpegurl')
        .set({ 'cache-control': 'no-cache, no-store, must-revalidate', pragma: 'no-cache' })
        .send(rewriteWatchPlaylist(await upstream.text(), name));
      return;
    }
    res.status(200).type('video/mp2t').set('cache-control', 'private, max-age=60');
    const length = upstream.headers.get('content-length');
    if (length) res.set('content-length', length);
    const body = Readable.fromWeb(upstream.body);
    await new Promise<void>((resolve, reject) => {
      body.on('error', reject);
      res.on('close', () => {
        body.destroy();
        resolve();
      });
      body.pipe(res);
    });
  });
}
