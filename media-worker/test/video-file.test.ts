/**
 * Uploaded media in the program (issue 19): a video file plays with its sound, loops, plays once
 * and keeps its last frame, starts over when its scene is shown; a damaged file fails alone while
 * the program and its outputs go on.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderPlanSchema, type PlanOutput } from '@onair/protocol';
import { HEIGHT, useSharedFixture, WIDTH } from './helpers/session-fixture.ts';
import { grabFrame, grabFrames, near, pixel, readAudioLevels } from './helpers/stream-probe.ts';

const RED = [255, 0, 0];
const GREEN = [0, 128, 0];
const BLUE = [0, 0, 255];
const suite = useSharedFixture();

function ffmpeg(...args: string[]): void {
  execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', ...args]);
}

/** A silent H.264 file: red for `red` seconds, then blue for `blue` seconds. */
function redThenBlue(name: string, red: number, blue: number): string {
  const clip = join(suite.fx.dir, name);
  ffmpeg(
    '-f',
    'lavfi',
    '-i',
    `color=c=red:s=320x240:r=30:d=${red}`,
    '-f',
    'lavfi',
    '-i',
    `color=c=blue:s=320x240:r=30:d=${blue}`,
    '-filter_complex',
    '[0:v][1:v]concat=n=2:v=1:a=0',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    clip,
  );
  return clip;
}

/** A 480p30 plan: the file on the left half of the picture, a red square at the right that is always there. */
function plan(outputs: PlanOutput[], file: { path: string; loop?: boolean; restartOnShow?: boolean }, scenes: { active: string } = { active: 'main' }) {
  return renderPlanSchema.parse({
    profile: { width: WIDTH, height: HEIGHT, fps: 30, videoBitrateKbps: 800, audioBitrateKbps: 128, encoderThreads: 1 },
    inputs: [
      { id: 'clip', kind: 'video-file', path: file.path, loop: file.loop ?? true, restartOnShow: file.restartOnShow ?? false },
      { id: 'red', kind: 'test-pattern', pattern: 'solid', color: 0xff0000, width: 160, height: 120 },
    ],
    scenes: [
      {
        id: 'main',
        placements: [
          { inputId: 'clip', x: 0, y: 0, width: 400, height: 300, zorder: 1 },
          { inputId: 'red', x: 600, y: 300, width: 160, height: 120, zorder: 2 },
        ],
      },
      { id: 'other', placements: [{ inputId: 'red', x: 600, y: 300, width: 160, height: 120, zorder: 2 }] },
    ],
    activeSceneId: scenes.active,
    audio: [{ inputId: 'clip', volume: 1 }],
    outputs,
  });
}

async function output() {
  const server = await suite.fx.rtmp();
  const k = suite.key();
  return { server, k, outputs: [{ id: 'main', url: `rtmp://127.0.0.1:${server.port}/live`, key: k }] };
}

describe('video files', () => {
  it('plays an uploaded MP4 with its sound and loops it', async () => {
    const clip = join(suite.fx.dir, 'green-tone.mp4');
    ffmpeg(
      '-f',
      'lavfi',
      '-i',
      'color=c=0x008000:s=320x240:r=30',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=1000:sample_rate=48000',
      '-t',
      '2',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      clip,
    );
    const { server, k, outputs } = await output();
    suite.fx.host.startSession({ sessionId: 'file-loop', planVersion: 1, plan: plan(outputs, { path: clip }) });
    await suite.fx.waitForOutput('file-loop', 'main', 'live');
    const frame = await grabFrame(server.url(k), WIDTH, HEIGHT);
    expect(near(pixel(frame, 200, 150), GREEN), `file picture ${pixel(frame, 200, 150).join(',')}`).toBe(true);
    expect(near(pixel(frame, 680, 360), RED)).toBe(true);
    // 6 s of sound from a 2 s file: it loops; the tone is there in every second of it.
    const levels = await readAudioLevels(server.url(k), 6, 250);
    const seconds = [0, 1, 2, 3, 4, 5].map((s) => Math.max(...levels.slice(s * 4, s * 4 + 4)));
    expect(Math.min(...seconds), `levels per second ${seconds.map((l) => l.toFixed(2)).join(' ')}`).toBeGreaterThan(0.05);
    const later = await grabFrame(server.url(k), WIDTH, HEIGHT);
    expect(near(pixel(later, 200, 150), GREEN)).toBe(true);
    await suite.fx.host.stopSession('file-loop');
  });

  it('keeps playing a looping file in real time after its first loops', async () => {
    // Red for 1 s, then blue for 1 s, over and over: any 1.5 s of it shows both.
    const clip = redThenBlue('red-blue.mp4', 1, 1);
    const { server, k, outputs } = await output();
    suite.fx.host.startSession({ sessionId: 'file-loops', planVersion: 1, plan: plan(outputs, { path: clip }) });
    await suite.fx.waitForOutput('file-loops', 'main', 'live');
    // Past its third loop. (A restart used to leave every later frame 'late' against the clock: the
    // decoder dropped them all on QoS, spinning through the file at over a core, and the picture froze.)
    await new Promise((r) => setTimeout(r, 6000));
    const frames = await grabFrames(server.url(k), WIDTH, HEIGHT, [0, 15, 30, 45]);
    const colours = frames.map((f) => pixel(f, 200, 150));
    const seen = `colours every 0.5 s: ${colours.map((c) => c.join(',')).join(' | ')}`;
    expect(
      colours.some((c) => near(c, RED, 60)),
      seen,
    ).toBe(true);
    expect(
      colours.some((c) => near(c, BLUE, 60)),
      seen,
    ).toBe(true);
    await suite.fx.host.stopSession('file-loops');
  });

  it('plays a silent file once and keeps its last frame; starts it over when its scene is shown again', async () => {
    // Red for 3 s, then blue.
    const clip = redThenBlue('red-then-blue.mp4', 3, 2);
    const { server, k, outputs } = await output();
    const withScene = (active: string) => plan(outputs, { path: clip, loop: false, restartOnShow: true }, { active });
    suite.fx.host.startSession({ sessionId: 'file-once', planVersion: 1, plan: withScene('main') });
    await suite.fx.waitForOutput('file-once', 'main', 'live');
    await new Promise((r) => setTimeout(r, 6000));
    // Ended: its last (blue) frame stays.
    const ended = await grabFrame(server.url(k), WIDTH, HEIGHT);
    expect(near(pixel(ended, 200, 150), BLUE), `ended ${pixel(ended, 200, 150).join(',')}`).toBe(true);

    suite.fx.host.applyPlan('file-once', 2, withScene('other'));
    const sent = Date.now();
    suite.fx.host.applyPlan('file-once', 3, withScene('main'));
    await suite.fx.waitForReport('file-once', 'planApplied', (r) => r.version === 3, 5000, sent);
    const restarted = await grabFrame(server.url(k), WIDTH, HEIGHT);
    expect(near(pixel(restarted, 200, 150), RED, 60), `restarted ${pixel(restarted, 200, 150).join(',')}`).toBe(true);
    await suite.fx.host.stopSession('file-once');
  });

  it('reports a damaged file and keeps the program and its output going', async ({ onTestFailed }) => {
    const logsAtStart = suite.fx.logs.length;
    onTestFailed(() => {
      process.stdout.write(
        `the sessions' log lines:\n${suite.fx.logs
          .slice(logsAtStart)
          .filter((l) => /file-cut|file-lie|video file|input|error/i.test(l))
          .slice(-60)
          .join('\n')}\n`,
      );
    });
    const good = join(suite.fx.dir, 'for-cut.mp4');
    ffmpeg('-f', 'lavfi', '-i', 'testsrc=s=320x240:r=30', '-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', good);
    const cut = join(suite.fx.dir, 'cut.mp4');
    const bytes = readFileSync(good);
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const notVideo = join(suite.fx.dir, 'not-a-video.mp4');
    writeFileSync(notVideo, 'this is not a video file\n'.repeat(100));
    for (const [sessionId, path] of [
      ['file-cut', cut],
      ['file-lie', notVideo],
    ] as const) {
      const { server, k, outputs } = await output();
      const sent = Date.now();
      suite.fx.host.startSession({ sessionId, planVersion: 1, plan: plan(outputs, { path }) });
      // Stopped whatever happens, so that a retry of this test starts from nothing.
      try {
        await suite.fx.waitForOutput(sessionId, 'main', 'live');
        const failed = await suite.fx.waitForReport(sessionId, 'error', (r) => r.code === 'INPUT_FAILED', 30_000, sent);
        expect(failed.fatal).toBe(false);
        const frame = await grabFrame(server.url(k), WIDTH, HEIGHT);
        expect(near(pixel(frame, 680, 360), RED)).toBe(true);
        expect(suite.fx.reports.filter((r) => r.sessionId === sessionId && r.report.type === 'error' && r.report.fatal)).toEqual([]);
      } finally {
        await suite.fx.host.stopSession(sessionId);
      }
    }
  });
});
