/**
 * The pacer (src/pipeline/pacer.ts) keeps a live compositor on the clock when the frames after it
 * take longer than a frame's time: measured against the same pipeline without it, in the same run.
 */
import { describe, expect, it } from 'vitest';
import { linkBranch, linkChain, makeElement, requestPad, timeOf } from '../src/gst/elements.ts';
import { loadGst } from '../src/gst/gst.ts';
import { GstPipeline } from '../src/gst/pipeline.ts';
import { CanvasBranch } from '../src/pipeline/inputs/canvas-branch.ts';
import { Pacer, PACER_TOLERANCE_MS } from '../src/pipeline/pacer.ts';

/** How far (ms) the compositor's output is behind the pipeline clock, read every 500 ms for `seconds`. */
async function behindMs(paced: boolean, seconds: number): Promise<number[]> {
  const gst = loadGst();
  const errors: string[] = [];
  const pipeline = new GstPipeline(`pacer-${paced ? 'on' : 'off'}`, { onError: (e) => errors.push(e.message) });
  const compositor = makeElement('compositor', 'compositor', { background: 'black' });
  const chain = [
    makeElement('videotestsrc', 'source', { 'is-live': true, pattern: 'ball' }),
    makeElement('capsfilter', 'source-caps', { caps: 'video/x-raw,format=AYUV,width=320,height=180,framerate=30/1' }),
    compositor,
    makeElement('capsfilter', 'program-caps', { caps: 'video/x-raw,format=AYUV,width=320,height=180,framerate=30/1' }),
    // Everything after the compositor (convert, encode, mux) taking 50 ms a frame, where a frame lasts 33 ms.
    makeElement('identity', 'slow', { 'sleep-time': 50_000 }),
    makeElement('fakesink', 'out', { sync: false, async: false }),
  ];
  for (const element of chain) pipeline.add(element);
  linkChain(chain);
  const pacer = paced ? new Pacer(pipeline.bin, compositor) : undefined;
  const readings: number[] = [];
  pipeline.play();
  pacer?.start();
  try {
    for (let i = 0; i < seconds * 2; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const clock = pipeline.bin.getClock();
      const position = timeOf(compositor.queryPosition(gst.Format.TIME));
      if (clock && position !== undefined) readings.push(Math.round((Number(clock.getTime()) - Number(pipeline.bin.getBaseTime()) - position) / 1e6));
    }
  } finally {
    pacer?.stop();
    pipeline.stop();
  }
  expect(errors).toEqual([]);
  return readings;
}

describe('pacer', () => {
  it('keeps the program on the clock where, without it, the program falls further behind every second', async () => {
    const without = await behindMs(false, 6);
    const paced = await behindMs(true, 6);
    const figures = `behind the clock (ms), without the pacer: ${without.join(' ')}; with it: ${paced.join(' ')}`;
    process.stdout.write(`pacer: ${figures}\n`);
    // Without: 50 ms of work per 33 ms frame loses about a third of a second every second.
    expect(without.at(-1)!, figures).toBeGreaterThan(1000);
    expect(without.at(-1)!, figures).toBeGreaterThan(without[1]! + 500);
    // With: once past the tolerance, late frames are not blended and the program comes back to the
    // clock; it never falls further behind than what it loses between two checks.
    expect(Math.max(...paced.slice(2)), figures).toBeLessThan(without.at(-1)! / 4);
    // Its bound: the tolerance, plus the compositor's own latency (not counted by the pacer) and
    // what the program loses between two checks, a third of 250 ms, with room to spare.
    expect(Math.max(...paced.slice(2)), figures).toBeLessThan(PACER_TOLERANCE_MS + 300);
  });

  it('leaves every live frame of a picture, drawn square or rounded, to the compositor while it skips late program frames', async () => {
    // A picture of snow (a new picture every frame) drawn twice by its CanvasBranches, square and
    // rounded (inputs/corner-mask.ts), into a program slower than its frame rate. Each program frame
    // the fakesink keeps is read; each tile should be a new picture in nearly every new program
    // frame. The pacer's QoS goes upstream to every pad: an element there that acts on it (videocrop
    // and videoconvertscale by default, shapewipe always) drops the picture's frames instead, and
    // the tile repeats its last picture (before the fix: the rounded tile was a new picture in 51 of
    // 91 program frames). The branches are built before the pipeline plays: the rounded one must
    // still get its mask and round the tile, and the pipeline must still stop (before, it hung).
    const errors: string[] = [];
    const pipeline = new GstPipeline('pacer-pictures', { onError: (e) => errors.push(e.message) });
    const compositor = makeElement('compositor', 'compositor', { background: 'black' });
    const sink = makeElement('fakesink', 'out', { sync: false, async: false, 'enable-last-sample': true });
    const program = [
      compositor,
      makeElement('capsfilter', 'program-caps', { caps: 'video/x-raw,format=AYUV,width=320,height=180,framerate=30/1' }),
      makeElement('identity', 'slow', { 'sleep-time': 50_000 }),
      sink,
    ];
    const source = [
      makeElement('videotestsrc', 'snow', { 'is-live': true, pattern: 'snow' }),
      makeElement('capsfilter', 'snow-caps', { caps: 'video/x-raw,format=I420,width=160,height=90,framerate=30/1' }),
      makeElement('tee', 'snow-tee', { 'allow-not-linked': true }),
    ];
    for (const element of [...program, ...source]) pipeline.add(element);
    linkChain(program);
    linkChain(source);
    const tiles = { square: { xpos: 0, ypos: 0, cornerRadius: 0 }, rounded: { xpos: 160, ypos: 90, cornerRadius: 12 } };
    const branches = Object.entries(tiles).map(([name, tile]) => {
      const branch = new CanvasBranch(pipeline, name, compositor, { queue: true });
      branch.place({ ...tile, width: 160, height: 90, zorder: 1, alpha: 1 });
      branch.start();
      linkBranch(requestPad(source[2]!, 'src_%u'), branch.sink);
      return branch;
    });
    const pacer = new Pacer(pipeline.bin, compositor);
    const behind: number[] = [];
    const seen = { frames: new Set<string>(), square: new Set<string>(), rounded: new Set<string>() };
    const blackCorners = { square: 0, rounded: 0 };
    // Eight pixels across the middle of each tile.
    const middle = (tile: { xpos: number; ypos: number }) => ((tile.ypos + 45) * 320 + tile.xpos + 76) * 4;
    pipeline.play();
    pacer.start();
    try {
      // The rounded branch is drawn once it has frames.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const until = performance.now() + 6000;
      while (performance.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        if (pacer.behindMs !== undefined) behind.push(pacer.behindMs);
        const sample = sink.lastSample as { getBuffer(): { extractDup(offset: number, size: number): Uint8Array } } | null;
        const buffer = sample?.getBuffer();
        if (!buffer) continue;
        const frame = Buffer.from(buffer.extractDup(0, 320 * 180 * 4)).toString('base64');
        if (seen.frames.has(frame)) continue;
        seen.frames.add(frame);
        for (const name of ['square', 'rounded'] as const) {
          const at = middle(tiles[name]);
          seen[name].add(Buffer.from(buffer.extractDup(at, 32)).toString('hex'));
          // The tile's top-left pixel (AYUV): the background's black where the corner is cut off.
          const [, y, u, v] = buffer.extractDup((tiles[name].ypos * 320 + tiles[name].xpos) * 4, 4);
          if (y! <= 20 && Math.abs(u! - 128) <= 4 && Math.abs(v! - 128) <= 4) blackCorners[name]++;
        }
      }
    } finally {
      pacer.stop();
      pipeline.stop();
      for (const branch of branches) branch.remove();
    }
    const figures =
      `program frames read ${seen.frames.size}, new pictures in them: square ${seen.square.size}, rounded ${seen.rounded.size}; ` +
      `corner cut off: square ${blackCorners.square}, rounded ${blackCorners.rounded}; behind the clock (ms) up to ${Math.max(...behind)}`;
    process.stdout.write(`pacer: ${figures}\n`);
    expect(errors).toEqual([]);
    // The pacer did skip: the program was behind by more than its tolerance.
    expect(Math.max(...behind), figures).toBeGreaterThan(PACER_TOLERANCE_MS);
    expect(seen.frames.size, figures).toBeGreaterThan(30);
    // The rounded tile is the rounded branch's (its corner cut off in every frame), not the plain pad's.
    expect(blackCorners.rounded, figures).toBe(seen.frames.size);
    expect(blackCorners.square, figures).toBeLessThan(seen.frames.size / 2);
    for (const name of ['square', 'rounded'] as const) expect(seen[name].size, figures).toBeGreaterThanOrEqual(seen.frames.size * 0.9);
  });
});
