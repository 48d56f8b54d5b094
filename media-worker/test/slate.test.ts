/**
 * The holding slate (issue 19): when every live source of the program drops, the program shows the
 * slate and the outputs stay connected (no reconnect); when a source sends again the scene is back.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { freePort, waitFor } from '@onair/embedded';
import { renderPlanSchema, type PipelineReport } from '@onair/protocol';
import { SCREEN_PICTURES, SLATE_IMAGE } from '../src/placement/screens.ts';
import { HEIGHT, testPlan, useSharedFixture, WIDTH } from './helpers/session-fixture.ts';
import { grabFrame, near, pixel } from './helpers/stream-probe.ts';

const suite = useSharedFixture();
const GREEN = [0, 255, 0];
const RED = [255, 0, 0];
const SLATE = [0x3b, 0x2a, 0x7a];

/** A camera as the WebRTC endpoint forwards it: green VP8 over RTP. */
function camera(port: number): ChildProcess {
  return spawn(
    'gst-launch-1.0',
    [
      '-q',
      ...`videotestsrc is-live=true pattern=solid-color foreground-color=0xff00ff00 ! video/x-raw,width=320,height=180,framerate=30/1 ! vp8enc deadline=1 keyframe-max-dist=15 ! rtpvp8pay pt=96 ! udpsink host=127.0.0.1 port=${port}`.split(
        ' ',
      ),
    ],
    { stdio: 'ignore' },
  );
}

describe('holding slate', () => {
  it('covers the program while every live source has dropped, keeps the output connected, and goes when one is back', async () => {
    expect(SCREEN_PICTURES.slate.background).toBe('#3b2a7a');
    const server = await suite.fx.rtmp();
    const k = suite.key();
    const port = await freePort();
    const base = testPlan([{ id: 'main', url: `rtmp://127.0.0.1:${server.port}/live`, key: k }]);
    suite.fx.host.startSession({
      sessionId: 'slate',
      planVersion: 1,
      plan: renderPlanSchema.parse({
        ...base,
        inputs: [...base.inputs, { id: 'cam', kind: 'rtp', video: { codecs: [{ encoding: 'VP8', port, payloadType: 96 }] } }],
        scenes: [{ id: 'main', placements: [...base.scenes[0]!.placements, { inputId: 'cam', x: 400, y: 300, width: 320, height: 160, zorder: 5 }] }],
        slate: { path: SLATE_IMAGE, afterMs: 1000 },
      }),
    });
    await suite.fx.waitForOutput('slate', 'main', 'live');
    const shows = (where: [number, number], colour: number[], what: string, timeoutMs = 30_000) =>
      waitFor(
        what,
        async () => {
          const frame = await grabFrame(server.url(k), WIDTH, HEIGHT);
          return near(pixel(frame, ...where), colour, 50) ? frame : undefined;
        },
        timeoutMs,
        100,
      );
    // No source ever sent yet: a camera not turned on is not a dropped one, the scene shows.
    await new Promise((r) => setTimeout(r, 2500));
    await shows([180, 160], RED, 'the scene before the camera starts', 5000);

    let sender = camera(port);
    try {
      await shows([560, 380], GREEN, 'the camera in the program');
      const dropped = Date.now();
      sender.kill('SIGKILL');
      const slateOn = await suite.fx.waitForReport('slate', 'stats', (r) => typeof r.stats.slateSince === 'string', 10_000, dropped);
      // The slate covers the whole picture, the always-there red layer included.
      const frame = await shows([180, 160], SLATE, 'the slate over the program', 10_000);
      expect(near(pixel(frame, 560, 380), SLATE, 50)).toBe(true);
      expect(Date.parse((slateOn as PipelineReport & { type: 'stats' }).stats.slateSince!) - dropped).toBeLessThan(3000);

      // A new sender (its own SSRC, sequence numbers and timestamps), as a studio reopened on a new peer.
      sender = camera(port);
      await shows([560, 380], GREEN, 'the camera back in the program');
      await shows([180, 160], RED, 'the rest of the scene back');
      // And it stays: ten seconds in which no report puts the slate back.
      const back = Date.now();
      await new Promise((r) => setTimeout(r, 10_000));
      const flaps = suite.fx.reports.filter((r) => r.sessionId === 'slate' && r.at > back && r.report.type === 'stats' && r.report.stats.slateSince !== null);
      expect(flaps.map((r) => r.at - back)).toEqual([]);
      expect(near(pixel(await grabFrame(server.url(k), WIDTH, HEIGHT), 560, 380), GREEN, 50)).toBe(true);
    } finally {
      sender.kill('SIGKILL');
    }
    const last = suite.fx.reports
      .filter((r): r is { sessionId: string; report: PipelineReport & { type: 'stats' }; at: number } => r.sessionId === 'slate' && r.report.type === 'stats')
      .at(-1)!;
    expect(last.report.stats.slateSince).toBeNull();
    // The output never dropped: one connection from start to end.
    expect(last.report.stats.outputs.find((o) => o.id === 'main')).toMatchObject({ state: 'live', reconnects: 0 });
    expect(
      suite.fx.reports.filter(
        (r) => r.sessionId === 'slate' && r.report.type === 'outputStatus' && r.report.state !== 'live' && r.report.state !== 'connecting',
      ),
    ).toEqual([]);
    await suite.fx.host.stopSession('slate');
  });
});
