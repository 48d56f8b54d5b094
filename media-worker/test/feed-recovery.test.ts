/**
 * Issue 53 item 2: a feed that stalls comes back, and never a broken frame on air. A camera that
 * behaves like a browser's (test/helpers/rtp-sender.ts: no periodic keyframes, a keyframe when
 * asked but not twice within 300 ms) sends through a relay the test controls into the worker's
 * RtpForwarder and a real session pipeline, whose RTMP output is read back and decoded; the
 * camera's tile in every output frame is compared with the colours the camera sent.
 * - Stall: its packets stop for 3 s (the camera's colour changes meanwhile) and resume without a
 *   keyframe of the camera's own: a keyframe is asked for at once, and the tile goes from the old
 *   picture (or its placeholder) to the new colour: never a black or broken frame, never the old picture after the new.
 * - Loss: 5 % of its packets dropped at random for 10 s, then a 500 ms blackout: no frame's tile is
 *   anything but a whole picture the camera sent (or its placeholder), and the new picture is
 *   on air again after the loss ends.
 */
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, waitFor, type RunningRtmpServer } from '@onair/embedded';
import { renderPlanSchema, type RenderPlan } from '@onair/protocol';
import { createFixture, secretKey, type Fixture } from './helpers/session-fixture.ts';
import { TestCamera } from './helpers/rtp-sender.ts';
import type { VideoEncoding } from '../src/webrtc/media-ports.ts';

const WIDTH = 854;
const HEIGHT = 480;
/** The camera's tile in the program. */
const TILE = { x: 107, y: 60, width: 640, height: 360 };
/** The output is read at this size (a tenth or so), each frame as RGB. */
const READ_W = 128;
const READ_H = 72;
/** Pixels this far in from the tile's edges are compared (its edges blend with the background). */
const MARGIN = 3;

const COLOURS = {
  red: [255, 0, 0],
  green: [0, 255, 0],
  blue: [0, 0, 255],
  yellow: [255, 255, 0],
  magenta: [255, 0, 255],
  cyan: [0, 255, 255],
  white: [255, 255, 255],
  /** The placeholder picture (made by the test). */
  placeholder: [128, 128, 128],
  black: [0, 0, 0],
} as const;
type Colour = keyof typeof COLOURS;
const ARGB = (c: Colour): number => {
  const [r, g, b] = COLOURS[c];
  return (0xff000000 | (r << 16) | (g << 8) | b) >>> 0;
};

interface Seen {
  at: number;
  /** The tile's colour if every pixel of it is that colour, else 'broken'. */
  tile: Colour | 'broken';
}

/** Every compared pixel within this of one colour, per channel (two lossy encodes and colour conversions on the way). */
const TOLERANCE = 60;

function classify(frame: Buffer): Seen['tile'] {
  const x0 = Math.ceil((TILE.x / WIDTH) * READ_W) + MARGIN;
  const x1 = Math.floor(((TILE.x + TILE.width) / WIDTH) * READ_W) - MARGIN;
  const y0 = Math.ceil((TILE.y / HEIGHT) * READ_H) + MARGIN;
  const y1 = Math.floor(((TILE.y + TILE.height) / HEIGHT) * READ_H) - MARGIN;
  const centre = ((((y0 + y1) >> 1) * READ_W + ((x0 + x1) >> 1)) * 3) as number;
  const guess = (Object.keys(COLOURS) as Colour[]).find((c) => COLOURS[c].every((v, i) => Math.abs(v - frame[centre + i]!) <= TOLERANCE));
  if (!guess) return 'broken';
  const want = COLOURS[guess];
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * READ_W + x) * 3;
      for (let c = 0; c < 3; c++) if (Math.abs(frame[i + c]! - want[c]!) > TOLERANCE) return 'broken';
    }
  }
  return guess;
}

/** Decodes every frame of the output as it arrives (see helpers/output-reader.ts), classified. */
function readTiles(url: string, seen: Seen[]): () => void {
  const args = ['-q', 'rtmp2src', `location=${url}`, '!', 'flvdemux', 'name=demux'];
  args.push('demux.video', '!', 'h264parse', '!', 'avdec_h264', 'max-threads=1', '!', 'videoscale', '!', 'videoconvert');
  args.push('!', `video/x-raw,format=RGB,width=${READ_W},height=${READ_H}`, '!', 'fdsink', 'fd=1', 'sync=false', 'async=false');
  args.push('demux.audio', '!', 'fakesink', 'sync=false', 'async=false');
  const reader = spawn('gst-launch-1.0', args, { stdio: ['ignore', 'pipe', 'ignore'] });
  const size = READ_W * READ_H * 3;
  let pending = Buffer.alloc(0);
  reader.stdout.on('data', (chunk: Buffer) => {
    const at = performance.now();
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= size) {
      seen.push({ at, tile: classify(pending.subarray(0, size)) });
      pending = pending.subarray(size);
    }
  });
  return () => reader.kill('SIGKILL');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs of the same tile, for messages: "blue×30 placeholder×12 red×40". */
function runs(seen: readonly Seen[]): string {
  const out: string[] = [];
  let last: string | undefined;
  let n = 0;
  for (const s of seen) {
    if (s.tile === last) n++;
    else {
      if (last) out.push(`${last}×${n}`);
      last = s.tile;
      n = 1;
    }
  }
  if (last) out.push(`${last}×${n}`);
  return out.join(' ');
}

let fx: Fixture;
let rtmp: RunningRtmpServer;
let placeholder: string;
/** The camera each session's keyframe requests go to (the WebRTC endpoint's part in the worker). */
const cameras = new Map<string, TestCamera>();

beforeAll(async () => {
  fx = await createFixture({
    onReport: (sessionId, report) => {
      if (report.type === 'keyframeWanted') cameras.get(sessionId)?.forwarder.requestKeyframe(false);
    },
  });
  rtmp = await fx.rtmp();
  placeholder = join(fx.dir, 'placeholder.png');
  execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x808080:s=320x180', '-frames:v', '1', placeholder]);
});

afterAll(async () => {
  if (process.env.DEBUG_LOGS) console.warn(fx.logs.filter((l) => l.includes(process.env.DEBUG_LOGS!)).join('\n'));
  for (const camera of cameras.values()) camera.stop();
  await fx?.close();
});

/** A session with the camera in a tile over a black program, live to the test's RTMP server; its output read from the start. */
async function startShow(sessionId: string, encoding: VideoEncoding, colour: Colour): Promise<{ camera: TestCamera; seen: Seen[]; stop: () => Promise<void> }> {
  const ports = { VP8: await freePort(), H264: await freePort() };
  const key = secretKey();
  const plan: RenderPlan = renderPlanSchema.parse({
    profile: { width: WIDTH, height: HEIGHT, fps: 30, videoBitrateKbps: 1500, audioBitrateKbps: 128, encoderThreads: 1 },
    inputs: [
      { id: 'tone', kind: 'test-pattern', pattern: 'solid', color: 0x000000, width: 160, height: 120, toneHz: 440 },
      {
        id: 'camera',
        kind: 'rtp',
        video: {
          codecs: [
            { encoding: 'VP8', port: ports.VP8, payloadType: 96 },
            { encoding: 'H264', port: ports.H264, payloadType: 102 },
          ],
          placeholder,
        },
      },
    ],
    scenes: [
      {
        id: 'main',
        placements: [
          { inputId: 'tone', x: 0, y: 0, width: 160, height: 120, zorder: 1 },
          { inputId: 'camera', ...TILE, zorder: 2 },
        ],
      },
    ],
    activeSceneId: 'main',
    audio: [{ inputId: 'tone', volume: 1 }],
    outputs: [{ id: 'main', url: `rtmp://127.0.0.1:${rtmp.port}/live`, key }],
  });
  fx.reportsSince = Date.now();
  fx.host.startSession({ sessionId, planVersion: 1, plan });
  await fx.waitForOutput(sessionId, 'main', 'live');
  const camera = await TestCamera.start(encoding, ports[encoding], ARGB(colour));
  cameras.set(sessionId, camera);
  const seen: Seen[] = [];
  const stopReading = readTiles(rtmp.url(key), seen);
  return {
    camera,
    seen,
    stop: async () => {
      stopReading();
      camera.stop();
      cameras.delete(sessionId);
      await fx.host.stopSession(sessionId);
    },
  };
}

/** Waits until a frame read after `since` shows `colour` in the tile; returns when it arrived. */
async function shows(seen: readonly Seen[], colour: Colour, since: number, timeoutMs = 15_000): Promise<number> {
  try {
    return await waitFor(`the tile showing ${colour}`, async () => seen.find((s) => s.at >= since && s.tile === colour)?.at, timeoutMs, 20);
  } catch (error) {
    throw new Error(`${(error as Error).message}; frames read: ${runs(seen)}`, { cause: error });
  }
}

describe('a camera feed that stalls or loses packets', () => {
  for (const [encoding, where] of [
    ['VP8', 'network'],
    ['H264', 'network'],
    ['VP8', 'worker'],
  ] as const) {
    it(`${encoding}: packets stop for 3 s ${where === 'network' ? 'on the way to the worker' : 'between the forwarder and the pipeline (the forwarder sees no gap)'} and resume without a keyframe: a keyframe is asked for at once and the new picture follows, never a black or broken one`, async () => {
      const show = await startShow(`stall-${where}-${encoding.toLowerCase()}`, encoding, 'blue');
      const { camera, seen } = show;
      try {
        await shows(seen, 'blue', 0, 30_000);
        // The pipeline's own delay, for the report: a colour change while all is well.
        const changedAt = performance.now();
        camera.color = ARGB('green');
        const latency = (await shows(seen, 'green', changedAt)) - changedAt;
        await sleep(500);

        const stalledAt = performance.now();
        camera.setRelay({ drop: 'all' }, where);
        await sleep(1000);
        camera.color = ARGB('red');
        await sleep(2000);
        const requestsBefore = camera.requests.length;
        const resumedAt = performance.now();
        camera.setRelay({ drop: 'none' }, where);
        const redAt = await shows(seen, 'red', resumedAt);
        await sleep(1000);

        const after = seen.filter((s) => s.at >= stalledAt);
        const requests = camera.requests.slice(requestsBefore);
        const report = `${encoding} stall (${where}): new picture at the reader ${Math.round(redAt - resumedAt)} ms after the packets resumed (a clean colour change took ${Math.round(latency)} ms); keyframe requests after resuming at +${requests.map((r) => `${Math.round(r.at - resumedAt)}${r.honoured ? '' : ' (ignored)'}`).join(', +')} ms; frames from the stall on: ${runs(after)}`;
        process.stdout.write(`${report}\n`);
        // Asked for when the packets resumed (by the forwarder, or by the pipeline when the
        // forwarder saw no gap), and sent by the camera before the new picture showed.
        expect(requests.filter((r) => r.honoured && r.at < redAt).length, report).toBeGreaterThan(0);
        // Every frame: the last good picture, the placeholder, or the new picture; nothing broken or black.
        expect(
          after.filter((s) => !['green', 'placeholder', 'red'].includes(s.tile)),
          report,
        ).toEqual([]);
        // Once the new picture showed, never the old one again. (Between the placeholder and the new
        // picture, the old one may show for a few frames: the feed is shown again when its decoder
        // puts out the keyframe's picture, which reaches the compositor up to a jitter buffer's
        // latency later; until then the compositor's pad holds the last good picture.)
        const firstNew = after.findIndex((s) => s.tile === 'red');
        expect(
          after.slice(firstNew).filter((s) => s.tile !== 'red'),
          report,
        ).toEqual([]);
        expect(camera.errors).toEqual([]);
      } finally {
        await show.stop();
      }
    });
  }

  for (const encoding of ['VP8', 'H264'] as const) {
    it(`${encoding}: 5 % of packets lost for 10 s, then a 500 ms blackout: every frame's tile is a whole picture the camera sent, and the new one is on air after the loss`, async () => {
      const show = await startShow(`loss-${encoding.toLowerCase()}`, encoding, 'blue');
      const { camera, seen } = show;
      const cycle: Colour[] = ['red', 'green', 'blue', 'yellow', 'magenta', 'cyan'];
      try {
        await shows(seen, 'blue', 0, 30_000);
        const lossAt = performance.now();
        camera.setRelay({ drop: 'random', share: 0.05 });
        let plisBefore = camera.forwarder.stats().plis;
        // A new colour every 300 ms: every change is a picture that a lost packet would damage.
        for (let i = 0; i < 34; i++) {
          camera.color = ARGB(cycle[i % cycle.length]!);
          await sleep(300);
        }
        const lossPlis = camera.forwarder.stats().plis - plisBefore;
        camera.setRelay({ drop: 'all' });
        await sleep(500);
        camera.color = ARGB('white');
        plisBefore = camera.forwarder.stats().plis;
        const endedAt = performance.now();
        camera.setRelay({ drop: 'none' });
        const whiteAt = await shows(seen, 'white', endedAt);
        await sleep(1000);

        const during = seen.filter((s) => s.at >= lossAt);
        const errors = fx.reports
          .filter((r) => r.sessionId === `loss-${encoding.toLowerCase()}` && r.report.type === 'error')
          .map((r) => JSON.stringify(r.report));
        const report = `${encoding} loss: ${errors.length} pipeline errors ${errors.join(' ')}; ${camera.relayed.dropped} packets dropped of ${camera.relayed.dropped + camera.relayed.passed}, ${lossPlis} keyframe requests during the 10 s of loss; whole again at the reader ${Math.round(whiteAt - endedAt)} ms after the loss ended; frames: ${runs(during)}`;
        process.stdout.write(`${report}\n`);
        expect(lossPlis, report).toBeGreaterThan(0);
        expect(camera.forwarder.stats().plis - plisBefore, report).toBeGreaterThan(0);
        // No damaged frame, and never black: each is a whole picture the camera sent, or its placeholder.
        expect(
          during.filter((s) => s.tile === 'broken' || s.tile === 'black'),
          report,
        ).toEqual([]);
        expect(camera.errors).toEqual([]);
        expect(errors, report).toEqual([]);
      } finally {
        await show.stop();
      }
    });
  }
});
