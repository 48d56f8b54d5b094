import { fileURLToPath } from 'node:url';
import type { Source } from '@onair/protocol';

const asset = (name: string) => fileURLToPath(new URL(`../../assets/${name}`, import.meta.url));

/**
 * The pictures of spec §2 "Source placeholders" that the program shows in a layer while its live
 * source sends nothing (640×360, drawn by scripts/draw-placeholders.ts, in the studio's colours so
 * the output matches what the editor shows).
 */
export const PLACEHOLDER_PICTURES = {
  camera: { text: 'Camera Offline', path: asset('placeholder-camera.png') },
  screenshare: { text: 'Screenshare Offline', path: asset('placeholder-screenshare.png') },
  game: { text: 'Game Source Offline', path: asset('placeholder-game.png') },
  unavailable: { text: 'Preview unavailable', path: asset('placeholder-unavailable.png') },
} as const;

/** The placeholder of a source kind fed live, or none for kinds without a picture of their own. */
export function placeholderFor(kind: Source['kind']): string | undefined {
  switch (kind) {
    case 'webcam':
    case 'participant':
      return PLACEHOLDER_PICTURES.camera.path;
    case 'screenshare':
      return PLACEHOLDER_PICTURES.screenshare.path;
    case 'game':
      return PLACEHOLDER_PICTURES.game.path;
    case 'webpage':
      return PLACEHOLDER_PICTURES.unavailable.path;
    default:
      return undefined;
  }
}
