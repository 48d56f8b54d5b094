// A destination's first connection on a loaded machine (CI of 2026-12-08, the two-creators
// journey): the server took the publish but the pipeline's first keyframe was late, and the output
// was failed for good as 'unreachable'; and a first attempt that only timed out failed at once.
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '@onair/runtime';
import { startRtmpServer, type RunningRtmpServer } from '@onair/embedded';
import { DestinationOutput, type OutputStatus } from '../src/pipeline/outputs/destination-output.ts';
import { FlvFanout } from '../src/pipeline/outputs/flv-fanout.ts';
import { RtmpEgress } from '../src/pipeline/outputs/rtmp-egress.ts';

const FLV_HEADER = Buffer.from([0x46, 0x4c, 0x56, 0x01, 0x05, 0, 0, 0, 9, 0, 0, 0, 0]);
function flvTag(type: number, timestamp: number, data: Buffer): Buffer {
  const header = Buffer.alloc(11);
  header[0] = type;
  header.writeUIntBE(data.length, 1, 3);
  header.writeUIntBE(timestamp & 0xffffff, 4, 3);
  const size = Buffer.alloc(4);
  size.writeUInt32BE(11 + data.length);
  return Buffer.concat([header, data, size]);
}
const avcHeader = () => flvTag(9, 0, Buffer.from([0x17, 0, 0, 0, 0, 1, 0x4d, 0, 0x1f]));
const keyframe = (ts: number) => flvTag(9, ts, Buffer.from([0x17, 1, 0, 0, 0, 0xaa, 0xbb]));

const logger = createLogger('test', 'silent');
const policy = { backoffMs: [200], stallAfterMs: 400, giveUpAfterMs: 60_000 };
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function until(what: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Ticks the output as SessionOutputs does, but every 100 ms. */
function ticking(output: DestinationOutput): void {
  const timer = setInterval(() => output.tick(), 100);
  cleanups.push(() => clearInterval(timer));
}

describe('a destination output connecting for the first time', () => {
  it('keeps a publish the server took while the first keyframe is late, and goes live when it comes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'onair-dest-output-'));
    const rtmp: RunningRtmpServer = await startRtmpServer({ dir });
    cleanups.push(
      () => rm(dir, { recursive: true, force: true }),
      () => rtmp.stop(),
    );
    const fanout = await FlvFanout.listen('test', logger);
    cleanups.push(() => fanout.close());
    // The pipeline's muxer: headers at once, its first keyframe only after several stall periods.
    const muxer = connect(fanout.port, '127.0.0.1');
    cleanups.push(() => void muxer.destroy());
    await new Promise<void>((resolve) => muxer.once('connect', () => resolve()));
    muxer.write(Buffer.concat([FLV_HEADER, avcHeader()]));

    const statuses: OutputStatus[] = [];
    let keyframesAsked = 0;
    const output = new DestinationOutput(
      { id: 'local', url: `rtmp://127.0.0.1:${rtmp.port}/live`, key: 'late-keyframe', allowPrivate: true },
      fanout,
      policy,
      (s) => statuses.push(s),
      logger,
      new RtmpEgress(),
      () => keyframesAsked++,
    );
    cleanups.push(() => output.detach());
    output.attach();
    ticking(output);
    await new Promise((r) => setTimeout(r, policy.stallAfterMs * 4));
    expect(statuses.map((s) => s.state)).not.toContain('failed');
    expect(output.current).toBe('connecting');
    // Asked again while it waited, not only when the attempt began.
    expect(keyframesAsked).toBeGreaterThan(1);
    muxer.write(keyframe(40));
    await until(() => output.current === 'live');
  });

  it('tries a first connection that only times out three times before saying the server is unreachable', async () => {
    // A server that takes the TCP connection and never answers the RTMP handshake.
    const accepted: Socket[] = [];
    const silent: Server = createServer((socket) => accepted.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    cleanups.push(() => {
      for (const s of accepted) s.destroy();
      silent.close();
    });
    const fanout = await FlvFanout.listen('test', logger);
    cleanups.push(() => fanout.close());
    const statuses: OutputStatus[] = [];
    const output = new DestinationOutput(
      { id: 'silent', url: `rtmp://127.0.0.1:${(silent.address() as AddressInfo).port}/live`, key: 'k', allowPrivate: true },
      fanout,
      policy,
      (s) => statuses.push(s),
      logger,
      new RtmpEgress(),
    );
    cleanups.push(() => output.detach());
    output.attach();
    ticking(output);
    await until(() => output.current === 'failed');
    expect(accepted).toHaveLength(3);
    expect(statuses.at(-1)).toMatchObject({ state: 'failed', errorCode: 'DESTINATION_UNREACHABLE' });
  });
});
