import { unsupportedCodecText, type IngestFeed, type IngestStatus } from '@onair/protocol';

export type IngestLight = 'waiting' | 'receiving' | 'dropped' | 'problem';

const CODEC_NAMES: Record<string, string> = { h264: 'H.264', hevc: 'HEVC', aac: 'AAC', opus: 'Opus', mp3: 'MP3', flv1: 'Sorenson H.263', vp6f: 'VP6' };
export const codecName = (codec: string): string => CODEC_NAMES[codec] ?? codec.toUpperCase();

/**
 * The ingest's line in the Auto Live block (spec issue 18 "Status"): waiting, receiving with the
 * feed's codec, size, frame rate and bitrate, dropped (with when Auto Live ends the broadcast), or
 * what is wrong with the feed.
 */
export function ingestStatusLine(status: IngestStatus, feed: IngestFeed | null, autoLive: boolean, now: number): { light: IngestLight; text: string } {
  if (status.state === 'receiving') {
    if (feed?.state === 'unsupported') return { light: 'problem', text: unsupportedCodecText(codecName(feed.videoCodec ?? 'unknown')) };
    if (feed?.state === 'stalled') return { light: 'problem', text: 'The feed stopped sending. Check your encoder or console.' };
    const from = status.via === 'console' ? 'console' : status.via === 'whip' ? 'WHIP' : 'encoder';
    if (!feed || feed.state === 'starting') return { light: 'receiving', text: `Receiving from your ${from}…` };
    const parts = [
      feed.videoCodec ? codecName(feed.videoCodec) : null,
      feed.audioCodec ? codecName(feed.audioCodec) : null,
      feed.width && feed.height ? `${feed.width}×${feed.height}` : null,
      feed.fps ? `${Math.round(feed.fps)} fps` : null,
      `${(feed.bitrateKbps / 1000).toFixed(1)} Mbps`,
    ].filter(Boolean);
    return { light: 'receiving', text: `Receiving from your ${from}: ${parts.join(' · ')}` };
  }
  if (status.state === 'dropped') {
    const left = status.graceEndsAt ? Math.max(0, Math.ceil((Date.parse(status.graceEndsAt) - now) / 1000)) : null;
    const ending = autoLive && left !== null && left > 0 ? ` The broadcast ends in ${left} s unless it returns.` : '';
    return { light: 'dropped', text: `Feed dropped: the game source shows 'Game Source Offline'.${ending}` };
  }
  return { light: 'waiting', text: autoLive ? 'Waiting for a feed: the broadcast starts when it arrives.' : 'Waiting for a feed.' };
}
