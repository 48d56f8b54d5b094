import { existsSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Logger } from '@onair/runtime';
import { linkBranch, linkPads, makeElement, requestPad, staticPad } from '../../gst/elements.ts';
import { loadGst, type GstBin, type GstElement, type GstPad } from '../../gst/gst.ts';

/** How long a recording's last fragment has to be written once it stops, before its bin goes. */
const FINISH_MS = 1000;

/**
 * The broadcast's recording: a branch of the encoded video and audio tees (the outputs' own
 * H.264 and AAC; nothing is encoded twice) into a fragmented MP4 (a fragment a second, the index
 * at the start), so a file cut short by a crash still plays up to its last whole fragment. Each
 * pipeline process writes a part of its own (`part-1.mp4`, `part-2.mp4` after a failover or a
 * crash), never over an earlier one. The encoder's step-down keeps the part: every step writes the
 * same parameter sets at the same size (encoder-ladder.ts).
 */
export class Recording {
  private bin: GstBin | undefined;
  private videoPad: GstPad | undefined;
  private audioPad: GstPad | undefined;
  readonly path: string;

  constructor(
    private readonly pipeline: GstBin,
    private readonly videoTee: GstElement,
    private readonly audioTee: GstElement,
    dir: string,
    private readonly logger: Logger,
    private readonly requestKeyframe: () => void,
  ) {
    mkdirSync(dir, { recursive: true });
    let part = 1;
    while (existsSync(join(dir, `part-${part}.mp4`))) part++;
    this.path = join(dir, `part-${part}.mp4`);
  }

  start(): void {
    const gst = loadGst();
    // Named by its part: the part before it may still be writing out its last fragment beside it.
    const bin = new gst.Bin({ name: `recording-${basename(this.path, '.mp4')}` });
    const queue = (name: string) =>
      makeElement('queue', name, { leaky: 'downstream', 'max-size-time': 5_000_000_000, 'max-size-buffers': 0, 'max-size-bytes': 0 });
    const videoQueue = queue('recording-vqueue');
    const audioQueue = queue('recording-aqueue');
    const mux = makeElement('mp4mux', 'recording-mux', { 'fragment-duration': 1000, streamable: true });
    const sink = makeElement('filesink', 'recording-sink', { location: this.path, async: false, sync: false });
    for (const element of [videoQueue, audioQueue, mux, sink]) bin.add(element);
    linkPads(staticPad(videoQueue, 'src'), requestPad(mux, 'video_%u'));
    linkPads(staticPad(audioQueue, 'src'), requestPad(mux, 'audio_%u'));
    if (!mux.link(sink)) throw new Error('cannot link the recording muxer to its file');
    bin.addPad(gst.GhostPad.new('video', staticPad(videoQueue, 'sink')));
    bin.addPad(gst.GhostPad.new('audio', staticPad(audioQueue, 'sink')));
    this.pipeline.add(bin);
    this.bin = bin;
    // Playing before it is linked (a tee pushing into a flushing pad stops the program), as outputs do.
    bin.syncStateWithParent();
    this.videoPad = requestPad(this.videoTee, 'src_%u');
    this.audioPad = requestPad(this.audioTee, 'src_%u');
    linkBranch(this.videoPad, staticPad(bin, 'video'));
    linkBranch(this.audioPad, staticPad(bin, 'audio'));
    // The file starts at a keyframe instead of waiting up to 2 s for the next one.
    this.requestKeyframe();
    this.logger.info({ path: this.path }, 'recording started');
  }

  /** Unlinks the branch, lets the muxer write out what it holds, then removes it. */
  stop(): Promise<void> {
    const bin = this.bin;
    if (!bin) return Promise.resolve();
    const gst = loadGst();
    this.bin = undefined;
    if (this.videoPad) {
      this.videoPad.unlink(staticPad(bin, 'video'));
      this.videoTee.releaseRequestPad(this.videoPad);
    }
    if (this.audioPad) {
      this.audioPad.unlink(staticPad(bin, 'audio'));
      this.audioTee.releaseRequestPad(this.audioPad);
    }
    staticPad(bin, 'video').sendEvent(gst.Event.newEos());
    staticPad(bin, 'audio').sendEvent(gst.Event.newEos());
    return new Promise((resolve) =>
      setTimeout(() => {
        bin.setState(gst.State.NULL);
        this.pipeline.remove(bin);
        this.logger.info({ path: this.path }, 'recording stopped');
        resolve();
      }, FINISH_MS),
    );
  }
}
