import { localStreamWatchUrl, localWatchDelaySeconds, outputProfiles, type LocalStream } from '@onair/protocol';
import type { Destination } from '@onair/db';
import type { DestinationSecrets } from './destination-secrets.ts';
import { localStreamName } from './local-stream-watch.ts';

/**
 * Where a Local destination's stream can be watched: its full RTMP address (stream name included,
 * for ffplay or VLC) and, when the local server writes HLS, the studio's Watch player on this api
 * with its delay (HLS fragments are cut at the program's keyframes).
 */
export function localStreamView(deps: { secrets: DestinationSecrets; hlsBaseUrl: string | undefined }, row: Destination): LocalStream {
  const name = localStreamName(deps.secrets, row);
  const watchable = deps.hlsBaseUrl !== undefined;
  return {
    destinationId: row.id,
    playUrl: `${(row.rtmpUrl ?? '').replace(/\/+$/, '')}/${name}`,
    hlsUrl: watchable ? localStreamWatchUrl(row.projectId, row.id) : null,
    watchDelaySeconds: watchable ? localWatchDelaySeconds(outputProfiles['720p30'].keyframeIntervalSeconds) /* every profile keys every 2 s */ : null,
  };
}
