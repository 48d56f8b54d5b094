/**
 * Recording (issue 19): the outputs' own encode, teed into a fragmented MP4 part; a clean stop
 * gives a whole file, a killed pipeline process leaves a readable part and the restarted one writes
 * the next part beside it.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { waitFor } from '@onair/embedded';
import { encoderLadder, renderPlanSchema } from '@onair/protocol';
import { testPlan, useSharedFixture } from './helpers/session-fixture.ts';

const run = promisify(execFile);
const suite = useSharedFixture();

interface Probed {
  codecs: string[];
  duration: number;
}

async function probe(file: string): Promise<Probed> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', file]);
  const json = JSON.parse(stdout) as { streams: { codec_name: string }[]; format: { duration?: string } };
  return { codecs: json.streams.map((s) => s.codec_name).sort(), duration: Number(json.format.duration) };
}

/** Seconds of video that actually decode (a player's view, not the header's). */
async function decodedSeconds(file: string): Promise<number> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-count_frames',
    '-show_entries',
    'stream=nb_read_frames',
    '-of',
    'csv=p=0',
    file,
  ]);
  return Number(stdout.trim().split(',')[0]) / 30;
}

describe('recording', () => {
  // 30 s (60 s until CI time ran short): thirty one-second fragments, ended by a clean stop.
  it("records 30 s of the broadcast as H.264 + AAC from the outputs' encode", async () => {
    const server = await suite.fx.rtmp();
    const dir = join(suite.fx.dir, 'rec-clean');
    const plan = renderPlanSchema.parse({ ...testPlan([{ id: 'main', url: `rtmp://127.0.0.1:${server.port}/live`, key: suite.key() }]), recording: { dir } });
    suite.fx.host.startSession({ sessionId: 'rec-clean', planVersion: 1, plan });
    await suite.fx.waitForOutput('rec-clean', 'main', 'live');
    await new Promise((r) => setTimeout(r, 30_000));
    await suite.fx.host.stopSession('rec-clean');
    expect(readdirSync(dir)).toEqual(['part-1.mp4']);
    const file = await probe(join(dir, 'part-1.mp4'));
    expect(file.codecs).toEqual(['aac', 'h264']);
    expect(file.duration).toBeGreaterThan(27);
    expect(file.duration).toBeLessThan(36);
    expect(await decodedSeconds(join(dir, 'part-1.mp4'))).toBeGreaterThan(25);
  }, 90_000);

  it('leaves a readable part when the pipeline process is killed, and goes on in the next part', async () => {
    const server = await suite.fx.rtmp();
    const dir = join(suite.fx.dir, 'rec-killed');
    const plan = renderPlanSchema.parse({ ...testPlan([{ id: 'main', url: `rtmp://127.0.0.1:${server.port}/live`, key: suite.key() }]), recording: { dir } });
    const session = suite.fx.host.startSession({ sessionId: 'rec-killed', planVersion: 1, plan });
    await suite.fx.waitForOutput('rec-killed', 'main', 'live');
    await new Promise((r) => setTimeout(r, 8000));
    const killedPid = session.pid!;
    process.kill(killedPid, 'SIGKILL');
    // The destination stays connected through the crash (issue 54): the next process playing is the sign.
    await waitFor('the next pipeline process playing', async () => (session.pid !== killedPid && session.current === 'running' ? true : undefined), 20_000, 50);
    await new Promise((r) => setTimeout(r, 5000));
    await suite.fx.host.stopSession('rec-killed');

    expect(readdirSync(dir).sort()).toEqual(['part-1.mp4', 'part-2.mp4']);
    const first = await probe(join(dir, 'part-1.mp4'));
    expect(first.codecs).toEqual(['aac', 'h264']);
    // Cut by the kill: what was written up to its last whole fragment plays.
    expect(await decodedSeconds(join(dir, 'part-1.mp4'))).toBeGreaterThan(4);
    const second = await probe(join(dir, 'part-2.mp4'));
    expect(second.codecs).toEqual(['aac', 'h264']);
    expect(await decodedSeconds(join(dir, 'part-2.mp4'))).toBeGreaterThan(2);
  }, 90_000);

  it('stays one part, playable to its end, when the encoder steps through its presets', async () => {
    const server = await suite.fx.rtmp();
    const id = `rec-presets-${randomUUID().slice(0, 8)}`;
    const dir = join(suite.fx.dir, id);
    suite.fx.host.startSession({
      sessionId: id,
      planVersion: 1,
      plan: renderPlanSchema.parse({ ...testPlan([{ id: 'main', url: `rtmp://127.0.0.1:${server.port}/live`, key: suite.key() }]), recording: { dir } }),
    });
    await suite.fx.waitForOutput(id, 'main', 'live');
    const began = Date.now();
    // Every step of the ladder (veryfast -> ultrafast at this size), each held 3 s.
    for (const { step } of encoderLadder(testPlan([]).profile).slice(1)) {
      await new Promise((r) => setTimeout(r, 3000));
      const since = Date.now();
      suite.fx.host
        .governed()
        .find((s) => s.sessionId === id)!
        .setStep(step);
      await suite.fx.waitForReport(id, 'stats', (r) => r.stats.encoder?.step === step, 20_000, since);
    }
    await new Promise((r) => setTimeout(r, 3000));
    const wall = (Date.now() - began) / 1000;
    await suite.fx.host.stopSession(id);

    const errors = suite.fx.reports.filter((r) => r.sessionId === id && r.report.type === 'error').map((r) => r.report);
    expect(readdirSync(dir), JSON.stringify(errors)).toEqual(['part-1.mp4']);
    expect((await probe(join(dir, 'part-1.mp4'))).codecs).toEqual(['aac', 'h264']);
    // Every frame after each step decodes: the part plays to its end, not only up to the first step.
    const decoded = await decodedSeconds(join(dir, 'part-1.mp4'));
    console.warn(`recording through every preset step: ${decoded.toFixed(2)} s decoded of ${wall.toFixed(2)} s live`);
    expect(decoded).toBeGreaterThan(wall - 1.5);
  }, 90_000);

  it('stays one part when an input joins and its scene is shown at once', async () => {
    const server = await suite.fx.rtmp();
    const dir = join(suite.fx.dir, 'rec-live-edit');
    const base = renderPlanSchema.parse({ ...testPlan([{ id: 'main', url: `rtmp://127.0.0.1:${server.port}/live`, key: suite.key() }]), recording: { dir } });
    suite.fx.host.startSession({ sessionId: 'rec-live-edit', planVersion: 1, plan: base });
    await suite.fx.waitForOutput('rec-live-edit', 'main', 'live');
    await new Promise((r) => setTimeout(r, 4000));
    // What the studio does when a Be Right Back screen is added and shown: a new input, then at
    // once the switch to the screen's scene.
    const withScreen = renderPlanSchema.parse({
      ...base,
      inputs: [...base.inputs, { id: 'screen', kind: 'test-pattern', pattern: 'solid', color: 0x00ff00, width: 320, height: 180 }],
      scenes: [...base.scenes, { id: 'brb', placements: [{ inputId: 'screen', x: 0, y: 0, width: 640, height: 360, zorder: 1 }] }],
    });
    suite.fx.host.applyPlan('rec-live-edit', 2, withScreen);
    suite.fx.host.applyPlan('rec-live-edit', 3, { ...withScreen, activeSceneId: 'brb' });
    await suite.fx.waitForReport('rec-live-edit', 'planApplied', (r) => r.version === 3);
    await new Promise((r) => setTimeout(r, 4000));
    await suite.fx.host.stopSession('rec-live-edit');

    expect(readdirSync(dir)).toEqual(['part-1.mp4']);
    expect((await probe(join(dir, 'part-1.mp4'))).codecs).toEqual(['aac', 'h264']);
    expect(await decodedSeconds(join(dir, 'part-1.mp4'))).toBeGreaterThan(7);
  }, 90_000);
});
