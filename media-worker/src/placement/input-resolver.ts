import { fileURLToPath } from 'node:url';
import type { InputResolver } from '@onair/protocol';

/** The OnAir logo drawn by the watermark source (474×124, twice its 237×62 placement). */
export const WATERMARK_IMAGE = fileURLToPath(new URL('../../assets/onair-logo.png', import.meta.url));

/**
 * Where each source's media comes from on this worker. The watermark is a bundled image. Live
 * tracks (camera, microphone, screen share, guests, game feeds) arrive as RTP from the WebRTC
 * endpoint and web pages from a render worker; until those feed a session, such sources have no
 * input, so their layers are left out of the program rather than faked.
 */
export function createInputResolver(): InputResolver {
  return (source) => {
    switch (source.kind) {
      case 'watermark':
        return { id: source.id, kind: 'image', path: WATERMARK_IMAGE };
      default:
        return undefined;
    }
  };
}
