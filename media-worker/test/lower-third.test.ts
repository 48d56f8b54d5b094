/**
 * Chat on screen drawn by the pipeline (issue 53 item 1): the worker's chatOnScreen command puts a
 * message over the running program as a lower third — the platform's colour block, the dark card, the
 * text in white — and takes it off again, with no new plan version; the pipeline reports each change
 * on air. Read back from the RTMP output as a platform would (ffmpeg frames), on both canvases.
 */
import { writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { waitFor } from '@onair/embedded';
import { renderPlanSchema, type ChatOnScreenDrawn, type RenderPlan } from '@onair/protocol';
import { LOWER_THIRD_BOX } from '../src/pipeline/lower-third.ts';
import { HEIGHT, useSharedFixture, WIDTH } from './helpers/session-fixture.ts';
import { grabFrame, near, pixel, type Frame } from './helpers/stream-probe.ts';

const suite = useSharedFixture();
const GREEN = [0x14, 0x53, 0x2d];
const TWITCH = [0x91, 0x46, 0xff];
const CARD = [0x15, 0x18, 0x21];
/** The card in output pixels (the profile is 854 wide, the scene canvas 1280). */
const k = WIDTH / 1280;
const box = { x: LOWER_THIRD_BOX.x * k, y: LOWER_THIRD_BOX.y * k, width: LOWER_THIRD_BOX.width * k, height: LOWER_THIRD_BOX.height * k };
/** Below the platform mark in the colour block; in the card, right of the text; the text's region. */
const badge: [number, number] = [Math.round(box.x + 10), Math.round(box.y + box.height - 10)];
const card: [number, number] = [Math.round(box.x + box.width - 12), Math.round(box.y + box.height - 10)];
const textRegion = {
  left: Math.round(box.x + 125),
  top: Math.round(box.y + 8),
  right: Math.round(box.x + box.width - 8),
  bottom: Math.round(box.y + box.height - 8),
};

function whitePixels(frame: Frame, region = textRegion): number {
  let n = 0;
  for (let y = region.top; y < region.bottom; y++) for (let x = region.left; x < region.right; x++) if (pixel(frame, x, y).every((c) => c > 170)) n++;
  return n;
}

const message = (text: string): ChatOnScreenDrawn => ({
  messageId: randomUUID(),
  shownAt: new Date().toISOString(),
  platform: 'twitch',
  displayName: 'kind_viewer <b>',
  text,
});

function plan(server: { port: number }, key: string, vertical?: { key: string; width: number; height: number }): RenderPlan {
  return renderPlanSchema.parse({
    profile: { width: WIDTH, height: HEIGHT, fps: 30, videoBitrateKbps: 1500, audioBitrateKbps: 128, encoderThreads: 1 },
    inputs: [{ id: 'screen', kind: 'test-pattern', pattern: 'solid', color: 0x14532d, width: WIDTH, height: HEIGHT }],
    scenes: [{ id: 'main', placements: [{ inputId: 'screen', x: 0, y: 0, width: WIDTH, height: HEIGHT, zorder: 1 }] }],
    activeSceneId: 'main',
    outputs: [
      { id: 'wide', url: `rtmp://127.0.0.1:${server.port}/live`, key },
      ...(vertical ? [{ id: 'tall', url: `rtmp://127.0.0.1:${server.port}/live`, key: vertical.key, canvas: 'vertical' }] : []),
    ],
    ...(vertical
      ? {
          vertical: {
            width: vertical.width,
            height: vertical.height,
            scenes: [{ id: 'main', placements: [{ inputId: 'screen', x: 0, y: 0, width: vertical.width, height: vertical.height, zorder: 1 }] }],
          },
        }
      : {}),
  });
}

describe('chat lower third', () => {
  it('is drawn over the running program on the chatOnScreen command, reported on air, and taken off again', async () => {
    const server = await suite.fx.rtmp();
    const key = suite.key();
    const grab = () => grabFrame(server.url(key), WIDTH, HEIGHT);
    suite.fx.host.startSession({ sessionId: 'lower-third', planVersion: 1, plan: plan(server, key) });
    await suite.fx.waitForOutput('lower-third', 'wide', 'live');
    const before = await waitFor(
      'the scene alone',
      async () => {
        const frame = await grab();
        return near(pixel(frame, ...badge), GREEN, 30) ? frame : undefined;
      },
      20_000,
      200,
    );
    expect(whitePixels(before)).toBe(0);

    // Markup in the message is drawn as the characters it is (rsvg would refuse the SVG, or draw bold, otherwise).
    const shown = message('<b>x</b> & Love this stream! '.repeat(8));
    suite.fx.host.setChatOnScreen('lower-third', shown);
    const onAir = await suite.fx.waitForReport('lower-third', 'chatOnScreenApplied', (r) => r.onAir !== null);
    expect(onAir.onAir).toEqual({ messageId: shown.messageId, shownAt: shown.shownAt });
    const frame = await waitFor(
      'the lower third in the output',
      async () => {
        const f = await grab();
        return near(pixel(f, ...badge), TWITCH, 40) && near(pixel(f, ...card), CARD, 30) && whitePixels(f) > 400 ? f : undefined;
      },
      20_000,
      200,
    );
    // To look at it: LOWER_THIRD_FRAME=/tmp/lower-third.ppm (a binary PPM).
    if (process.env.LOWER_THIRD_FRAME) await writeFile(process.env.LOWER_THIRD_FRAME, Buffer.concat([Buffer.from(`P6 ${WIDTH} ${HEIGHT} 255\n`), frame.rgb]));
    // Three lines at most: nothing drawn under the card.
    expect(near(pixel(frame, badge[0], Math.round(box.y + box.height + 6)), GREEN, 30)).toBe(true);

    // Taken off: the scene alone again, reported.
    suite.fx.host.setChatOnScreen('lower-third', null);
    await suite.fx.waitForReport('lower-third', 'chatOnScreenApplied', (r) => r.onAir === null);
    await waitFor(
      'the lower third gone',
      async () => {
        const f = await grab();
        return near(pixel(f, ...badge), GREEN, 30) && near(pixel(f, ...card), GREEN, 30) && whitePixels(f) === 0 ? true : undefined;
      },
      20_000,
      200,
    );
    expect(suite.fx.logs.some((l) => l.includes('chat lower third left out') || l.includes('chat lower third failed'))).toBe(false);
    await suite.fx.host.stopSession('lower-third');
  });

  it('is drawn from the plan by a pipeline that starts with a message on screen, on the vertical canvas too', async () => {
    const server = await suite.fx.rtmp();
    const [wideKey, tallKey] = [suite.key(), suite.key()];
    const tall = { width: 480, height: 854 };
    const shown = message('Hello from the vertical canvas');
    suite.fx.host.startSession({
      sessionId: 'lower-third-vertical',
      planVersion: 1,
      plan: { ...plan(server, wideKey, { key: tallKey, ...tall }), chatOnScreen: shown },
    });
    await suite.fx.waitForOutput('lower-third-vertical', 'tall', 'live');
    await suite.fx.waitForReport('lower-third-vertical', 'chatOnScreenApplied', (r) => r.onAir?.messageId === shown.messageId);
    // The card scaled into the band at the bottom of the vertical picture (CHAT_ON_SCREEN_VERTICAL_BOX: y 875 of 1280).
    const kv = tall.width / 720;
    const kc = (720 * kv) / 1280;
    const vBox = { x: LOWER_THIRD_BOX.x * kc, y: 875 * kv + LOWER_THIRD_BOX.y * kc, width: LOWER_THIRD_BOX.width * kc, height: LOWER_THIRD_BOX.height * kc };
    const vBadge: [number, number] = [Math.round(vBox.x + 5), Math.round(vBox.y + vBox.height - 5)];
    await waitFor(
      'the lower third on the vertical picture',
      async () => {
        const f = await grabFrame(server.url(tallKey), tall.width, tall.height);
        return near(pixel(f, ...vBadge), TWITCH, 40) ? true : undefined;
      },
      20_000,
      200,
    );
    await waitFor(
      'the lower third on the horizontal picture',
      async () => {
        const f = await grabFrame(server.url(wideKey), WIDTH, HEIGHT);
        return near(pixel(f, ...badge), TWITCH, 40) && whitePixels(f) > 100 ? true : undefined;
      },
      20_000,
      200,
    );
    await suite.fx.host.stopSession('lower-third-vertical');
  });
});
