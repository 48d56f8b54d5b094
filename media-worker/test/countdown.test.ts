/**
 * The countdown's time left in the program (issue 19): the plan names when the countdown ends and
 * the pipeline draws mm:ss over the scene, changing every second, stopping at 00:00, and gone when
 * the plan no longer names it. Read back from the output as a platform would (ffmpeg frames).
 */
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { waitFor } from '@onair/embedded';
import { renderPlanSchema, type RenderPlan } from '@onair/protocol';
import { COUNTDOWN_BOX } from '../src/pipeline/countdown-clock.ts';
import { HEIGHT, useSharedFixture, WIDTH } from './helpers/session-fixture.ts';
import { grabFrame, near, pixel, type Frame } from './helpers/stream-probe.ts';

const suite = useSharedFixture();
const GREEN = [0x14, 0x53, 0x2d];
/** The plate in output pixels (the profile is 854 wide, the scene canvas 1280). */
const k = WIDTH / 1280;
const box = {
  x: Math.round(COUNTDOWN_BOX.x * k),
  y: Math.round(COUNTDOWN_BOX.y * k),
  width: Math.round(COUNTDOWN_BOX.width * k),
  height: Math.round(COUNTDOWN_BOX.height * k),
};

/** Which pixels of the plate are white (the digits), as one string of 0/1. */
function digits(frame: Frame, at: { x: number; y: number; width: number; height: number } = box): string {
  let mask = '';
  for (let y = at.y + 4; y < at.y + at.height - 4; y++)
    for (let x = at.x + 4; x < at.x + at.width - 4; x++) mask += pixel(frame, x, y).every((c) => c > 170) ? '1' : '0';
  return mask;
}
const whiteCount = (mask: string) => mask.split('').filter((c) => c === '1').length;
const difference = (a: string, b: string) => a.split('').filter((c, i) => c !== b[i]).length;

describe('countdown time left', () => {
  it('is drawn over the countdown scene, changes every second, stops at 00:00 and goes when the scene is left', async () => {
    const server = await suite.fx.rtmp();
    const key = suite.key();
    const plan = (countdown?: RenderPlan['countdown']): RenderPlan =>
      renderPlanSchema.parse({
        profile: { width: WIDTH, height: HEIGHT, fps: 30, videoBitrateKbps: 1500, audioBitrateKbps: 128, encoderThreads: 1 },
        // The Starting Soon screen's flat green, full frame.
        inputs: [{ id: 'screen', kind: 'test-pattern', pattern: 'solid', color: 0x14532d, width: WIDTH, height: HEIGHT }],
        scenes: [{ id: 'countdown', placements: [{ inputId: 'screen', x: 0, y: 0, width: WIDTH, height: HEIGHT, zorder: 1 }] }],
        activeSceneId: 'countdown',
        outputs: [{ id: 'main', url: `rtmp://127.0.0.1:${server.port}/live`, key }],
        ...(countdown ? { countdown } : {}),
      });
    const centre: [number, number] = [box.x + 2, box.y + Math.round(box.height / 2)];
    const grab = () => grabFrame(server.url(key), WIDTH, HEIGHT);

    suite.fx.host.startSession({ sessionId: 'countdown', planVersion: 1, plan: plan() });
    await suite.fx.waitForOutput('countdown', 'main', 'live');
    // No countdown in the plan: the scene alone, no plate.
    const before = await waitFor(
      'the scene without a plate',
      async () => {
        const frame = await grab();
        return near(pixel(frame, ...centre), GREEN, 30) ? frame : undefined;
      },
      20_000,
      200,
    );
    expect(whiteCount(digits(before))).toBe(0);

    // 4.5 s left: the plate shows (dark over the green) with white digits.
    const endsAt = Date.now() + 4500;
    suite.fx.host.applyPlan('countdown', 2, plan({ endsAt }));
    const first = await waitFor(
      'the plate with its digits',
      async () => {
        const frame = await grab();
        const plate = pixel(frame, ...centre);
        return plate.every((c, i) => c < GREEN[i]! - 5 || c < 12) && whiteCount(digits(frame)) > 200 ? frame : undefined;
      },
      20_000,
      200,
    );
    const firstAt = Date.now();
    // To look at the frame: COUNTDOWN_FRAME=/tmp/countdown.ppm (a binary PPM).
    if (process.env.COUNTDOWN_FRAME) await writeFile(process.env.COUNTDOWN_FRAME, Buffer.concat([Buffer.from(`P6 ${WIDTH} ${HEIGHT} 255\n`), first.rgb]));
    const a = digits(first);
    // A second later the digits are others.
    await new Promise((r) => setTimeout(r, Math.max(0, firstAt + 1300 - Date.now())));
    const b = digits(await grab());
    expect(difference(a, b)).toBeGreaterThan(150);

    // Past the end: 00:00, unchanging.
    await new Promise((r) => setTimeout(r, Math.max(0, endsAt + 1000 - Date.now())));
    const end1 = digits(await grab());
    await new Promise((r) => setTimeout(r, 1300));
    const end2 = digits(await grab());
    console.warn(`countdown digits: changed pixels over a second ${difference(a, b)}, after the end ${difference(end1, end2)} (of ${a.length})`);
    expect(whiteCount(end1)).toBeGreaterThan(200);
    expect(difference(end1, end2)).toBeLessThan(difference(a, b) / 3);
    expect(difference(end1, a)).toBeGreaterThan(150);

    // The scene is left (no countdown in the plan): the plate goes.
    suite.fx.host.applyPlan('countdown', 3, plan());
    await waitFor(
      'the plate gone',
      async () => {
        const frame = await grab();
        return near(pixel(frame, ...centre), GREEN, 30) && whiteCount(digits(frame)) === 0 ? true : undefined;
      },
      20_000,
      200,
    );
    expect(suite.fx.logs.some((l) => l.includes('countdown plate left out') || l.includes('countdown plate failed'))).toBe(false);
    await suite.fx.host.stopSession('countdown');
  });

  it('is drawn on the vertical canvas too', async () => {
    const server = await suite.fx.rtmp();
    const [wideKey, tallKey] = [suite.key(), suite.key()];
    const url = `rtmp://127.0.0.1:${server.port}/live`;
    // The vertical picture of an 854×480 profile: 480×854; the plate centred across, at two thirds down.
    const tall = { width: 480, height: 854 };
    const plate = { x: (tall.width - box.width) / 2, y: Math.round(tall.height * 0.66), width: box.width, height: box.height };
    const plan = (countdown?: RenderPlan['countdown']): RenderPlan =>
      renderPlanSchema.parse({
        profile: { width: WIDTH, height: HEIGHT, fps: 30, videoBitrateKbps: 1500, audioBitrateKbps: 128, encoderThreads: 1 },
        inputs: [{ id: 'screen', kind: 'test-pattern', pattern: 'solid', color: 0x14532d, width: WIDTH, height: HEIGHT }],
        scenes: [{ id: 'countdown', placements: [{ inputId: 'screen', x: 0, y: 0, width: WIDTH, height: HEIGHT, zorder: 1 }] }],
        activeSceneId: 'countdown',
        outputs: [
          { id: 'wide', url, key: wideKey },
          { id: 'tall', url, key: tallKey, canvas: 'vertical' },
        ],
        vertical: {
          ...tall,
          scenes: [{ id: 'countdown', placements: [{ inputId: 'screen', x: 0, y: 0, width: tall.width, height: tall.height, zorder: 1 }] }],
        },
        ...(countdown ? { countdown } : {}),
      });
    const grab = () => grabFrame(server.url(tallKey), tall.width, tall.height);
    suite.fx.host.startSession({ sessionId: 'countdown-vertical', planVersion: 1, plan: plan() });
    await suite.fx.waitForOutput('countdown-vertical', 'tall', 'live');
    const before = await waitFor(
      'the vertical scene',
      async () => {
        const frame = await grab();
        return near(pixel(frame, plate.x + 2, plate.y + 40), GREEN, 30) ? frame : undefined;
      },
      20_000,
      200,
    );
    expect(whiteCount(digits(before, plate))).toBe(0);

    suite.fx.host.applyPlan('countdown-vertical', 2, plan({ endsAt: Date.now() + 30_000 }));
    const first = await waitFor(
      'the plate on the vertical picture',
      async () => {
        const frame = await grab();
        return whiteCount(digits(frame, plate)) > 200 ? frame : undefined;
      },
      20_000,
      200,
    );
    const at = Date.now();
    await new Promise((r) => setTimeout(r, Math.max(0, at + 1300 - Date.now())));
    expect(difference(digits(first, plate), digits(await grab(), plate))).toBeGreaterThan(150);
    await suite.fx.host.stopSession('countdown-vertical');
  });
});
