// Draws the offline pictures that the program shows in a layer whose live source sends nothing
// (spec §2 "Source placeholders"), in the studio's own colours, with the system Chromium. Run by
// hand when the wording or the look changes: `npx tsx scripts/draw-placeholders.ts`; the PNGs are
// committed under assets/ so a worker never needs a browser or a font stack to show them.
import { writeFile } from 'node:fs/promises';
import { chromium } from 'playwright-core';
import { PLACEHOLDER_PICTURES } from '../src/placement/placeholders.ts';

// Outline icons in the style of the studio's (24-unit grid, 2-unit round strokes).
const ICONS: Record<keyof typeof PLACEHOLDER_PICTURES, string> = {
  camera: '<path d="M16 10l5-3v10l-5-3z"/><rect x="2" y="6" width="14" height="12" rx="2"/><path d="M2 2l20 20"/>',
  screenshare: '<rect x="2" y="3" width="20" height="14" rx="2"/><path d="M8 21h8M12 17v4"/><path d="M2 2l20 20"/>',
  game: '<path d="M6 11h4M8 9v4M15 12h.01M18 10h.01"/><rect x="2" y="6" width="20" height="12" rx="4"/>',
  unavailable: '<path d="M2 2l20 20"/><path d="M10.4 4H19a2 2 0 0 1 2 2v8.6M21 21H5a2 2 0 0 1-2-2V5"/><path d="M3 16l5-5 5 5"/>',
};

const page = (text: string, icon: string) => `<!doctype html><html><head><meta charset="utf-8"><style>
html, body { margin: 0; width: 640px; height: 360px; background: #1c202b; color: #9aa1b4; font-family: Inter, system-ui, sans-serif; }
body { display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 18px; }
svg { width: 72px; height: 72px; fill: none; stroke: currentColor; stroke-width: 1.6; stroke-linecap: round; stroke-linejoin: round; }
span { font-size: 34px; font-weight: 600; letter-spacing: 0.01em; }
</style></head><body><svg viewBox="0 0 24 24">${icon}</svg><span>${text}</span></body></html>`;

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--headless', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
try {
  const tab = await browser.newPage({ viewport: { width: 640, height: 360 } });
  for (const [kind, picture] of Object.entries(PLACEHOLDER_PICTURES) as [
    keyof typeof PLACEHOLDER_PICTURES,
    (typeof PLACEHOLDER_PICTURES)[keyof typeof PLACEHOLDER_PICTURES],
  ][]) {
    await tab.setContent(page(picture.text, ICONS[kind]));
    await writeFile(picture.path, await tab.screenshot({ type: 'png' }));
    process.stdout.write(`${picture.path}\n`);
  }
} finally {
  await browser.close();
}
