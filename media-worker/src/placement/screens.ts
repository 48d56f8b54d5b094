import { fileURLToPath } from 'node:url';

const asset = (name: string) => fileURLToPath(new URL(`../../assets/${name}`, import.meta.url));

/**
 * The built-in full-frame pictures (1280×720, drawn by scripts/draw-screens.ts): the holding slate
 * the program shows while every live source of its scene has dropped, and the Free Starting Soon,
 * Be Right Back and Ending screens. Their background is one flat colour, so a test (or an operator
 * with a frame grab) can tell them apart at a glance.
 */
export const SCREEN_PICTURES = {
  slate: { title: "We'll be right back", subtitle: 'The stream will continue in a moment.', background: '#3b2a7a', path: asset('screen-slate.png') },
  starting: { title: 'Starting soon', subtitle: 'Get comfortable, we are about to begin.', background: '#14532d', path: asset('screen-starting.png') },
  brb: { title: 'Be right back', subtitle: 'Stay tuned.', background: '#7c2d12', path: asset('screen-brb.png') },
  ending: { title: 'Thanks for watching', subtitle: 'See you next time.', background: '#1e3a5f', path: asset('screen-ending.png') },
} as const;

export const SLATE_IMAGE = SCREEN_PICTURES.slate.path;
