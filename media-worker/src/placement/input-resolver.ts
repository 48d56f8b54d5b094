import { fileURLToPath } from 'node:url';
import type { InputResolver } from '@onair/protocol';
import type { MediaPorts } from '../webrtc/media-ports.ts';
import { liveSourceMedia } from '../webrtc/track-router.ts';
import { placeholderFor } from './placeholders.ts';

/** The OnAir logo drawn by the watermark source (474×124, twice its 237×62 placement). */
export const WATERMARK_IMAGE = fileURLToPath(new URL('../../assets/onair-logo.png', import.meta.url));

/**
 * Where each source's media comes from on this worker. The watermark is a bundled image. Camera,
 * screen share, microphone and guest sources are RTP inputs on ports of their own, attached from
 * the session's start and listening even before a track arrives, so a track that stops and comes
 * back never rebuilds the pipeline (without `ports`, as in tests of the fleet, they are left out).
 * While one sends nothing, its layer shows the offline picture of its kind (placeholders.ts).
 * Web pages arrive the same way from a render worker (see session-pages.ts), and game sources from
 * the ingest (ingest/ingest-relay.ts: H.264 + Opus from an encoder or console).
 */
export function createInputResolver(ports?: MediaPorts): InputResolver {
  return (source) => {
    if (source.kind === 'watermark') return { id: source.id, kind: 'image', path: WATERMARK_IMAGE };
    // A render worker sends the page as H.264 + Opus, painted green where it is transparent.
    const placeholder = placeholderFor(source.kind);
    if (source.kind === 'webpage' && ports) return ports.rtpInput(source.id, { video: true, audio: true }, { encodings: ['H264'], keyColor: 'green', ...(placeholder ? { placeholder } : {}) });
    // H.264 from encoders and consoles (RTMP ingest) or WHIP, VP8 from a browser publishing over WHIP.
    if (source.kind === 'game' && ports) return ports.rtpInput(source.id, { video: true, audio: true }, { encodings: ['H264', 'VP8'], ...(placeholder ? { placeholder } : {}) });
    const media = liveSourceMedia[source.kind];
    // A guest's sound starts at 0 and fades in (spec §4 "Guest tile").
    if (ports && media) return ports.rtpInput(source.id, media, { encodings: ['VP8', 'H264'], ...(placeholder ? { placeholder } : {}) }, source.kind === 'participant' ? { fadeIn: true } : {});
    return undefined;
  };
}
