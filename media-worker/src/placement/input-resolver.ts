import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InputResolver, PlanInput, Source } from '@onair/protocol';
import type { MediaPorts } from '../webrtc/media-ports.ts';
import { liveSourceMedia } from '../webrtc/track-router.ts';
import { placeholderFor } from './placeholders.ts';
import { SCREEN_PICTURES } from './screens.ts';

/** The OnAir logo drawn by the watermark source (474×124, twice its 237×62 placement). */
export const WATERMARK_IMAGE = fileURLToPath(new URL('../../assets/onair-logo.png', import.meta.url));

/**
 * Where each source's media comes from on this worker. The watermark is a bundled image. Camera,
 * screen share, microphone and guest sources are RTP inputs on ports of their own, attached from
 * the session's start and listening even before a track arrives, so a track that stops and comes
 * back never rebuilds the pipeline (without `ports`, as in tests of the fleet, they are left out).
 * While one sends nothing, its layer shows the offline picture of its kind (placeholders.ts).
 * Web pages arrive the same way from a render worker (see session-pages.ts), and game sources from
 * the ingest (ingest/ingest-relay.ts: H.264 + Opus from an encoder or console). Images and video
 * files are uploads, read in place from the uploads folder the api writes (`uploadsDir`, the same
 * UPLOADS_DIR).
 */
export function createInputResolver(ports?: MediaPorts, uploadsDir?: string): InputResolver {
  const uploads = uploadsDir === undefined ? undefined : resolve(uploadsDir);
  return (source) => {
    if (source.kind === 'watermark') return { id: source.id, kind: 'image', path: WATERMARK_IMAGE };
    if (source.kind === 'image' && source.settings.screen && !source.settings.uploadId)
      return { id: source.id, kind: 'image', path: SCREEN_PICTURES[source.settings.screen].path };
    if (source.kind === 'image' || source.kind === 'video') return uploads ? uploadInput(source, uploads) : undefined;
    // A page without an address is rendered by nobody (wantedRenders): it has nothing to draw, and
    // its 'Preview unavailable' card would cover the program (a template's chat and alerts overlays
    // are full frame until the creator gives them an address; issue 51).
    if (source.kind === 'webpage' && source.settings.config.url === '') return undefined;
    // A render worker sends the page as H.264 + Opus, painted green where it is transparent.
    const placeholder = placeholderFor(source.kind);
    if (source.kind === 'webpage' && ports)
      return ports.rtpInput(source.id, { video: true, audio: true }, { encodings: ['H264'], keyColor: 'green', ...(placeholder ? { placeholder } : {}) });
    // H.264 from encoders and consoles (RTMP ingest) or WHIP, VP8 from a browser publishing over WHIP.
    if (source.kind === 'game' && ports)
      return ports.rtpInput(source.id, { video: true, audio: true }, { encodings: ['H264', 'VP8'], ...(placeholder ? { placeholder } : {}) });
    const media = liveSourceMedia[source.kind];
    // A person's card says who: the name the studio shows for them (a guest's, or the one given to a camera).
    const name = source.kind === 'webcam' || source.kind === 'participant' ? source.settings.displayName.trim() : '';
    // A guest's sound starts at 0 and fades in (spec §4 "Guest tile").
    if (ports && media)
      return ports.rtpInput(
        source.id,
        media,
        { encodings: ['VP8', 'H264'], ...(placeholder ? { placeholder } : {}), ...(placeholder && name ? { placeholderLabel: name.slice(0, 100) } : {}) },
        source.kind === 'participant' ? { fadeIn: true } : {},
      );
    return undefined;
  };
}

/**
 * An uploaded image (stored as `<id>.png`) or video file (`<id>.mp4` or `<id>.webm`), when its file
 * is here; an image given only by an address, or an upload deleted since, is left out.
 */
function uploadInput(source: Extract<Source, { kind: 'image' | 'video' }>, uploads: string): PlanInput | undefined {
  const uploadId = source.settings.uploadId;
  if (!uploadId) return undefined;
  if (source.kind === 'image') {
    const path = join(uploads, `${uploadId}.png`);
    return existsSync(path) ? { id: source.id, kind: 'image', path } : undefined;
  }
  const path = ['mp4', 'webm'].map((ext) => join(uploads, `${uploadId}.${ext}`)).find((p) => existsSync(p));
  return path ? { id: source.id, kind: 'video-file', path, loop: source.settings.loop, restartOnShow: source.settings.restartOnShow } : undefined;
}
