/**
 * Issue 51 item 4, "An arriving feed is always seen" (README): a camera input whose person is not in
 * the session draws nothing while it sends nothing, so the layer under it (the game) shows; its
 * placeholder shows only while its person is there with the camera off. Real pipeline, frames read
 * back from a real nginx-rtmp.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { freePort, waitFor } from '@onair/embedded';
import { renderPlanSchema, type RenderPlan } from '@onair/protocol';
import { HEIGHT, testPlan, useSharedFixture, WIDTH } from './helpers/session-fixture.ts';
import { grabFrame, near, pixel } from './helpers/stream-probe.ts';

const suite = useSharedFixture();
const GREEN = [0, 255, 0];
const CAMERA_OFFLINE = join(import.meta.dirname, '..', 'assets', 'placeholder-camera.png');
const MAGENTA = [255, 0, 255];

describe('a camera nobody is there to send', () => {
  it('draws nothing over the layer under it while its person is away, and its placeholder while they are there with the camera off', async () => {
    const server = await suite.fx.rtmp();
    const k = suite.key();
    const placeholder = join(suite.fx.dir, 'camera-offline.png');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0xFF00FF:s=64x36', '-frames:v', '1', placeholder]);
    const outputs = [{ id: 'main', url: `rtmp://127.0.0.1:${server.port}/live`, key: k }];
    const base = testPlan(outputs);
    const cameraPort = await freePort();
    // The game full frame at the bottom, the host's camera full frame over it (a new project's Beam
    // scene with a feed arrived, as before issue 51), nobody sending on the camera's port.
    const plan = (absentInputs: string[]): RenderPlan =>
      renderPlanSchema.parse({
        ...base,
        inputs: [
          { id: 'game', kind: 'test-pattern', pattern: 'solid', color: 0x00ff00, width: 320, height: 180 },
          { id: 'camera', kind: 'rtp', video: { codecs: [{ encoding: 'VP8', port: cameraPort, payloadType: 96 }], placeholder } },
        ],
        scenes: [
          {
            id: 'main',
            placements: [
              { inputId: 'game', x: 0, y: 0, width: WIDTH, height: HEIGHT, zorder: 1 },
              { inputId: 'camera', x: 0, y: 0, width: WIDTH, height: HEIGHT, zorder: 2 },
            ],
          },
        ],
        absentInputs,
      });
    const away = plan(['camera']);
    const there = renderPlanSchema.parse({ ...away, absentInputs: [] });
    const programShows = (colour: number[], what: string) =>
      waitFor(
        what,
        async () => {
          const frame = await grabFrame(server.url(k), WIDTH, HEIGHT);
          const points = [pixel(frame, WIDTH / 2, HEIGHT / 2), pixel(frame, 40, 40), pixel(frame, WIDTH - 40, HEIGHT - 40)];
          return points.every((p) => near(p, colour, 60)) ? true : undefined;
        },
        30_000,
        200,
      );
    suite.fx.host.startSession({ sessionId: 'presence', planVersion: 1, plan: away });
    await suite.fx.waitForOutput('presence', 'main', 'live');
    await programShows(GREEN, 'the game, with no Camera Offline card over it');
    // The host opens the studio with the camera off: the same version planned again.
    suite.fx.host.replan('presence', there);
    await programShows(MAGENTA, 'the placeholder of the camera of a host who is there');
    // They close the studio: the game again.
    suite.fx.host.replan('presence', away);
    await programShows(GREEN, 'the game once the host left');
    await suite.fx.host.stopSession('presence');
  });

  it("writes the person's name on the card of someone in the studio with the camera off", async () => {
    const server = await suite.fx.rtmp();
    const k = suite.key();
    const base = testPlan([{ id: 'main', url: `rtmp://127.0.0.1:${server.port}/live`, key: k }]);
    const cameraPort = await freePort();
    suite.fx.host.startSession({
      sessionId: 'named',
      planVersion: 1,
      plan: renderPlanSchema.parse({
        ...base,
        inputs: [
          {
            id: 'guest',
            kind: 'rtp',
            video: { codecs: [{ encoding: 'VP8', port: cameraPort, payloadType: 96 }], placeholder: CAMERA_OFFLINE, placeholderLabel: 'Ada Lovelace' },
          },
        ],
        scenes: [{ id: 'main', placements: [{ inputId: 'guest', x: 0, y: 0, width: WIDTH, height: HEIGHT, zorder: 1 }] }],
        absentInputs: [],
      }),
    });
    await suite.fx.waitForOutput('named', 'main', 'live');
    // The card's words are at about 225/360 of its height, the name under them at about 285/360;
    // the card's background is dark (28,32,43), its words and the name light.
    const lightest = (frame: Awaited<ReturnType<typeof grabFrame>>, yFraction: number) => {
      let max = 0;
      for (let dy = -8; dy <= 8; dy++)
        for (let x = Math.round(WIDTH * 0.36); x < WIDTH * 0.64; x++) max = Math.max(max, ...pixel(frame, x, Math.round(HEIGHT * yFraction) + dy));
      return max;
    };
    await waitFor(
      'the card with the name under its words',
      async () => {
        const frame = await grabFrame(server.url(k), WIDTH, HEIGHT);
        return lightest(frame, 225 / 360) > 120 && lightest(frame, 285 / 360) > 120 && lightest(frame, 330 / 360) < 70 ? true : undefined;
      },
      30_000,
      200,
    );
    await suite.fx.host.stopSession('named');
  });
});
