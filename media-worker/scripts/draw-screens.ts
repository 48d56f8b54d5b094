// Draws the built-in full-frame screens (the holding slate; Starting Soon, Be Right Back, Ending)
// with the system Chromium, as draw-placeholders.ts does for the offline pictures. Run by hand when
// the wording or the look changes: `npx tsx scripts/draw-screens.ts`; the PNGs are committed under
// assets/ so a worker never needs a browser or a font stack to show them.
import { writeFile } from 'node:fs/promises';
import { chromium } from 'playwright-core';
import { SCREEN_PICTURES } from '../src/placement/screens.ts';

const page = (title: string, subtitle: string, background: string) => `<!doctype html><html><head><meta charset="utf-8"><style>
html, body { margin: 0; width: 1280px; height: 720px; background: ${background}; color: #ffffff; font-family: Inter, system-ui, sans-serif; }
body { display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 20px; }
h1 { margin: 0; font-size: 84px; font-weight: 700; letter-spacing: -0.01em; }
p { margin: 0; font-size: 32px; opacity: 0.85; }
</style></head><body><h1>${title}</h1><p>${subtitle}</p></body></html>`;

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--headless', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
try {
  const tab = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  for (const screen of Object.values(SCREEN_PICTURES)) {
    await tab.setContent(page(screen.title, screen.subtitle, screen.background));
    await writeFile(screen.path, await tab.screenshot({ type: 'png' }));
    process.stdout.write(`${screen.path}\n`);
  }
} finally {
  await browser.close();
}
