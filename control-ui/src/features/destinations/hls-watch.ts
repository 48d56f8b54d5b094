import { LOCAL_WATCH_SYNC_FRAGMENTS } from '@onair/protocol';
import type { LocalWatchState } from '../../stores/index.ts';

/** Nothing live yet (or the stream stopped): look again this often, so the player starts when the creator goes live. */
const OFFLINE_RETRY_MS = 3000;

export type WatchReport = (state: LocalWatchState, error?: string) => void;

/**
 * Plays a Local stream's HLS (`url`, on the api) in `video`: with hls.js over Media Source
 * Extensions (Chromium and Firefox play no HLS by themselves), or natively where the browser does
 * (Safari). A playlist the api answers 404 (nothing published yet) is tried again every few
 * seconds. Returns the stop function.
 */
export function startWatchPlayback(video: HTMLVideoElement, url: string, report: WatchReport): () => void {
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let stopCurrent: () => void = () => undefined;
  const onPlaying = () => report('playing');
  video.addEventListener('playing', onPlaying);

  const again = () => {
    stopCurrent();
    report('offline');
    if (!stopped) retry = setTimeout(start, OFFLINE_RETRY_MS);
  };

  function start(): void {
    if (stopped) return;
    void import('hls.js').then(({ default: Hls }) => {
      if (stopped) return;
      if (!Hls.isSupported()) {
        if (!video.canPlayType('application/vnd.apple.mpegurl')) {
          report('unsupported');
          return;
        }
        video.src = url;
        const onError = () => again();
        video.addEventListener('error', onError, { once: true });
        void video.play().catch(() => undefined);
        stopCurrent = () => {
          video.removeEventListener('error', onError);
          video.removeAttribute('src');
          video.load();
        };
        return;
      }
      const hls = new Hls({
        liveSyncDurationCount: LOCAL_WATCH_SYNC_FRAGMENTS,
        // A 404 playlist means nothing is live: say so at once and look again later, not after hls.js's own retries.
        manifestLoadPolicy: {
          default: {
            maxTimeToFirstByteMs: 10_000,
            maxLoadTimeMs: 20_000,
            timeoutRetry: { maxNumRetry: 1, retryDelayMs: 0, maxRetryDelayMs: 0 },
            errorRetry: null,
          },
        },
      });
      hls.on(Hls.Events.MANIFEST_PARSED, () => void video.play().catch(() => undefined));
      hls.on(Hls.Events.ERROR, (_event, data) => {
        if (!data.fatal) return;
        if (data.type === Hls.ErrorTypes.NETWORK_ERROR) again();
        else if (data.type === Hls.ErrorTypes.MEDIA_ERROR) hls.recoverMediaError();
        else {
          stopCurrent();
          report('error', 'The stream cannot be played here.');
        }
      });
      hls.loadSource(url);
      hls.attachMedia(video);
      stopCurrent = () => hls.destroy();
    });
  }

  report('connecting');
  start();
  return () => {
    stopped = true;
    clearTimeout(retry);
    video.removeEventListener('playing', onPlaying);
    stopCurrent();
  };
}
