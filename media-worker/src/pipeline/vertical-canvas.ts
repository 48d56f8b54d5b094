import type { EncoderPreset, OutputProfile, PlanVertical, RenderPlan } from '@onair/protocol';
import { linkBranch, linkChain, linkPads, makeElement, requestPad, staticPad } from '../gst/elements.ts';
import { loadGst, type GstElement, type GstPad } from '../gst/gst.ts';
import type { GstPipeline } from '../gst/pipeline.ts';
import { backgroundCaps, programCaps, X264_OPTIONS } from './build/video.ts';
import { BACKGROUND_ZORDER, videoLayout, type VideoPadLayout } from './layout.ts';
import type { FlvSink } from './outputs/flv-fanout.ts';
import { Pacer } from './pacer.ts';

/**
 * The vertical canvas of a session (issue 20): a second compositor drawing the same scenes on a
 * 9:16 picture, its own H.264 encode, and its own FLV fan-out that the vertical destinations are
 * fed from. It takes no input of its own: every picture the program decodes is split by its tee
 * (inputs/picture-link.ts) into the horizontal compositor and this one, and the program's one AAC
 * encode is split into both muxers, so a vertical canvas costs a compositor and an x264, and
 * nothing per destination. It is attached to the running pipeline when the first vertical
 * destination comes and detached when the last one goes (issue 35): the horizontal program and
 * its outputs are not touched either way, so a session without vertical destinations pays nothing.
 *
 * Every element here is named `vertical-…`, so bus errors are told apart from the horizontal program's.
 */
export class VerticalCanvas {
  /** FLV of the vertical program, to the worker's fan-out that each vertical output is fed from. */
  readonly fanout: FlvSink;
  readonly compositor: GstElement;
  /** Keeps the vertical compositor on the clock (pacer.ts). */
  readonly pacer: Pacer;
  /** Every element of the canvas, in the order they are linked (sources first). */
  private readonly elements: GstElement[] = [];
  private audio: { teePad: GstPad; queue: GstElement } | undefined;

  private constructor(
    private readonly gst: GstPipeline,
    private readonly profile: OutputProfile,
    private readonly preset: EncoderPreset,
    readonly size: { width: number; height: number },
    fanout: FlvSink,
  ) {
    this.fanout = fanout;
    this.compositor = makeElement('compositor', 'vertical-compositor', { background: 'black' });
    this.pacer = new Pacer(gst.bin, this.compositor);
  }

  /**
   * Builds the canvas into `gst` (playing or not) and starts it: elements are brought to the
   * pipeline's state from the sink up, so nothing pushes into a pad that is not ready; the
   * program's encoded sound joins last. The caller then gives every picture its vertical branch.
   */
  static async attach(gst: GstPipeline, profile: OutputProfile, preset: EncoderPreset, vertical: PlanVertical, fanout: FlvSink): Promise<VerticalCanvas> {
    const canvas = new VerticalCanvas(gst, profile, preset, { width: vertical.width, height: vertical.height }, fanout);
    try {
      canvas.build();
      canvas.shareAudio();
    } catch (err) {
      canvas.detach();
      throw err;
    }
    canvas.pacer.start();
    return canvas;
  }

  /** The plan as the vertical compositor places it: the vertical scenes on the vertical picture. */
  static planView(plan: RenderPlan, vertical: PlanVertical): RenderPlan {
    return { ...plan, profile: { ...plan.profile, width: vertical.width, height: vertical.height }, scenes: vertical.scenes };
  }

  private build(): void {
    const { width, height } = this.size;
    const { fps } = this.profile;
    const background = [
      makeElement('videotestsrc', 'vertical-background', { 'is-live': true, pattern: 'black' }),
      makeElement('capsfilter', 'vertical-background-caps', { caps: backgroundCaps(width, height, fps) }),
    ];
    // The same chain as the horizontal program's (build/video.ts), without the preview and the
    // encoder ladder: the governor steps the horizontal encode only.
    const chain = [
      this.compositor,
      makeElement('capsfilter', 'vertical-caps', { caps: programCaps(width, height, fps) }),
      makeElement('videoconvert', 'vertical-encoder-convert'),
      makeElement('capsfilter', 'vertical-encoder-caps', { caps: 'video/x-raw,format=I420' }),
      makeElement('queue', 'vertical-encoder-queue', { 'max-size-buffers': 0, 'max-size-bytes': 0, 'max-size-time': 500_000_000 }),
      makeElement('x264enc', 'vertical-encoder', {
        bitrate: this.profile.videoBitrateKbps,
        pass: 'cbr',
        'key-int-max': this.profile.keyframeIntervalSeconds * fps,
        'option-string': X264_OPTIONS,
        tune: 'zerolatency',
        'speed-preset': this.preset,
        threads: this.profile.encoderThreads,
      }),
      makeElement('capsfilter', 'vertical-h264-caps', { caps: 'video/x-h264,profile=main' }),
      makeElement('h264parse', 'vertical-h264-parse'),
      makeElement('queue', 'vertical-video-mux-queue', { 'max-size-buffers': 0, 'max-size-bytes': 0, 'max-size-time': 2_000_000_000 }),
    ];
    const mux = makeElement('flvmux', 'vertical-mux', { streamable: true });
    const toFanout = this.fanout.elements(this.profile.videoBitrateKbps + this.profile.audioBitrateKbps);
    for (const element of [...background, ...chain, mux, ...toFanout]) {
      this.gst.add(element);
      this.elements.push(element);
    }
    linkChain(background);
    linkChain(chain);
    linkPads(staticPad(chain[chain.length - 1]!, 'src'), requestPad(mux, 'video'));
    linkChain([mux, ...toFanout]);
    const backgroundPad = requestPad(this.compositor, 'sink_%u');
    linkPads(staticPad(background[1]!, 'src'), backgroundPad);
    Object.assign(backgroundPad, { xpos: 0, ypos: 0, width, height, zorder: BACKGROUND_ZORDER, alpha: 1 });
    for (const element of [...this.elements].reverse()) {
      if (!element.syncStateWithParent()) throw new Error(`the vertical canvas could not start (${element.name})`);
    }
  }

  /**
   * Feeds the program's one AAC encode into the vertical muxer too: a branch of the program's
   * encoded-audio tee (`audio-encoded`, which the recording also hangs from), with a queue of its
   * own, playing before the tee feeds it.
   */
  private shareAudio(): void {
    const audioTee = this.gst.bin.getByName('audio-encoded');
    const mux = this.gst.bin.getByName('vertical-mux');
    if (!audioTee || !mux) throw new Error('build the program audio and the vertical canvas first');
    const queue = makeElement('queue', 'vertical-audio-mux-queue', { 'max-size-buffers': 0, 'max-size-bytes': 0, 'max-size-time': 2_000_000_000 });
    this.gst.add(queue);
    linkPads(staticPad(queue, 'src'), requestPad(mux, 'audio'));
    queue.syncStateWithParent();
    const teePad = requestPad(audioTee, 'src_%u');
    linkBranch(teePad, staticPad(queue, 'sink'));
    this.audio = { teePad, queue };
  }

  /**
   * Takes the canvas out of the running pipeline (its outputs and its pictures' branches are gone
   * already): the encoded sound's branch is unlinked from the program's tee first, so the program
   * never pushes into a stopping element; then the canvas stops and leaves.
   */
  detach(): void {
    this.pacer.stop();
    const { State } = loadGst();
    const audioTee = this.gst.bin.getByName('audio-encoded');
    if (this.audio && audioTee) {
      this.audio.teePad.unlink(staticPad(this.audio.queue, 'sink'));
      audioTee.releaseRequestPad(this.audio.teePad);
      this.audio.queue.setState(State.NULL);
      this.gst.remove(this.audio.queue);
    }
    this.audio = undefined;
    for (const element of this.elements) element.setState(State.NULL);
    for (const element of this.elements) this.gst.remove(element);
    this.elements.length = 0;
  }

  /** Where every input is drawn on the vertical picture for the active scene. */
  static layout(plan: RenderPlan): Map<string, VideoPadLayout> {
    return plan.vertical ? videoLayout(VerticalCanvas.planView(plan, plan.vertical)) : new Map();
  }

  /**
   * Asks the vertical encoder for a keyframe (a vertical destination just connected), as
   * ProgramPipeline.requestKeyframe does for the horizontal one.
   */
  requestKeyframe(): boolean {
    const Gst = loadGst();
    const pad = this.gst.bin.getByName('vertical-encoder')?.getStaticPad('src');
    const structure = Gst.Structure.newFromString('GstForceKeyUnit, all-headers=(boolean)true');
    if (!pad || !structure) return false;
    return pad.sendEvent(Gst.Event.newCustom(Gst.EventType.CUSTOM_UPSTREAM, structure));
  }
}
