/**
 * The pacer (src/pipeline/pacer.ts) keeps a live compositor on the clock when the frames after it
 * take longer than a frame's time: measured against the same pipeline without it, in the same run.
 */
import { describe, expect, it } from 'vitest';
import { linkChain, makeElement, timeOf } from '../src/gst/elements.ts';
import { loadGst } from '../src/gst/gst.ts';
import { GstPipeline } from '../src/gst/pipeline.ts';
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
});
