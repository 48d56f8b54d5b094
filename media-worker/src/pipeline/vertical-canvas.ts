import type { EncoderPreset, OutputProfile, PlanVertical, RenderPlan } from '@onair/protocol';
import { linkChain, linkPads, makeElement, requestPad, staticPad } from '../gst/elements.ts';
import { loadGst, type GstBin, type GstElement, type GstPad } from '../gst/gst.ts';
import type { GstPipeline } from '../gst/pipeline.ts';
import { BACKGROUND_ZORDER, videoLayout, type VideoPadLayout } from './layout.ts';
import type { FlvFanout } from './outputs/flv-fanout.ts';
import { Pacer } from './pacer.ts';

/**
 * The vertical canvas of a session (issue 20): a second compositor drawing the same scenes on a
 * 9:16 picture, its own H.264 encode, and its own FLV fan-out that the vertical destinations are
 * fed from. It takes no input of its own: every video feed the program decodes is split by a tee
 * (`fanOut`) into the horizontal compositor and this one, and the program's one AAC encode is
 * split into both muxers (`shareAudio`), so a vertical canvas costs a compositor and an x264, and
 * nothing per destination. Built only when an output asks for it (the supervisor restarts the
 * pipeline when that changes), so a session without vertical destinations pays nothing.
 *
 * Every element here is named `vertical-…` (or `inN-…` for the fan-out of input N), so bus errors
 * are told apart from the horizontal program's.
 */
export class VerticalCanvas {
  /** FLV of the vertical program; each vertical output is fed from it. */
  fanout!: FlvFanout;
  private compositor!: GstElement;
  /** Keeps the vertical compositor on the clock (pacer.ts); started with the program's. */
  pacer!: Pacer;

  constructor(
    private readonly gst: GstPipeline,
    private readonly profile: OutputProfile,
    private readonly preset: EncoderPreset,
  ) {}

  /** The plan as the vertical compositor places it: the vertical scenes on the vertical picture. */
  static planView(plan: RenderPlan, vertical: PlanVertical): RenderPlan {
    return { ...plan, profile: { ...plan.profile, width: vertical.width, height: vertical.height }, scenes: vertical.scenes };
  }

  build(vertical: PlanVertical, fanout: FlvFanout): void {
    const { width, height } = vertical;
    const { fps } = this.profile;
    const background = [
      makeElement('videotestsrc', 'vertical-background', { 'is-live': true, pattern: 'black' }),
      makeElement('capsfilter', 'vertical-background-caps', { caps: `video/x-raw,format=AYUV,width=${width},height=${height},framerate=${fps}/1` }),
    ];
    this.compositor = makeElement('compositor', 'vertical-compositor', { background: 'black' });
    // The same chain as the horizontal program's (program.ts buildVideo), without the preview and
    // the encoder ladder: the governor steps the horizontal encode only.
    const chain = [
      this.compositor,
      makeElement('capsfilter', 'vertical-caps', { caps: `video/x-raw,format=AYUV,width=${width},height=${height},framerate=${fps}/1,pixel-aspect-ratio=1/1` }),
      makeElement('videoconvert', 'vertical-encoder-convert'),
      makeElement('capsfilter', 'vertical-encoder-caps', { caps: 'video/x-raw,format=I420' }),
      makeElement('queue', 'vertical-encoder-queue', { 'max-size-buffers': 0, 'max-size-bytes': 0, 'max-size-time': 500_000_000 }),
      makeElement('x264enc', 'vertical-encoder', {
        bitrate: this.profile.videoBitrateKbps,
        pass: 'cbr',
        'key-int-max': this.profile.keyframeIntervalSeconds * fps,
        'option-string': 'scenecut=0:nal-hrd=cbr',
        tune: 'zerolatency',
        'speed-preset': this.preset,
        threads: this.profile.encoderThreads,
      }),
      makeElement('capsfilter', 'vertical-h264-caps', { caps: 'video/x-h264,profile=main' }),
      makeElement('h264parse', 'vertical-h264-parse'),
      makeElement('queue', 'vertical-video-mux-queue', { 'max-size-buffers': 0, 'max-size-bytes': 0, 'max-size-time': 2_000_000_000 }),
      makeElement('flvmux', 'vertical-mux', { streamable: true }),
    ];
    this.fanout = fanout;
    const toFanout = fanout.elements();
    const muxQueue = chain[chain.length - 2]!;
    const mux = chain[chain.length - 1]!;
    for (const element of [...background, ...chain, ...toFanout]) this.gst.add(element);
    linkChain(background);
    linkChain(chain.slice(0, -1));
    this.pacer = new Pacer(this.gst.bin, this.compositor);
    linkPads(staticPad(muxQueue, 'src'), requestPad(mux, 'video'));
    linkChain([mux, ...toFanout]);
    const backgroundPad = requestPad(this.compositor, 'sink_%u');
    linkPads(staticPad(background[1]!, 'src'), backgroundPad);
    Object.assign(backgroundPad, { xpos: 0, ypos: 0, width, height, zorder: BACKGROUND_ZORDER, alpha: 1 });
  }

  /**
   * Feeds the program's one AAC encode into the vertical muxer too: a branch of the program's
   * encoded-audio tee (`audio-encoded`, which the recording also hangs from), with a queue of its
   * own. Done before the pipeline plays.
   */
  shareAudio(): void {
    const audioTee = this.gst.bin.getByName('audio-encoded');
    const mux = this.gst.bin.getByName('vertical-mux');
    if (!audioTee || !mux) throw new Error('build the program audio and the vertical canvas first');
    const queue = makeElement('queue', 'vertical-audio-mux-queue', { 'max-size-buffers': 0, 'max-size-bytes': 0, 'max-size-time': 2_000_000_000 });
    this.gst.add(queue);
    linkPads(requestPad(audioTee, 'src_%u'), staticPad(queue, 'sink'));
    linkPads(staticPad(queue, 'src'), requestPad(mux, 'audio'));
  }

  /**
   * One decoded video feed into both compositors: the source bin and a tee with a queue per
   * compositor, wrapped in one bin (so the program adds, starts and removes it as one unit), whose
   * two ghost pads are linked to a new pad on each compositor. The queues keep one compositor's
   * deadline from ever holding the other's frames.
   */
  fanOut(source: GstBin, name: string, horizontal: GstElement): { bin: GstBin; pad: GstPad; verticalPad: GstPad } {
    const gst = loadGst();
    const bin = new gst.Bin({ name: `${name}-split` });
    const tee = makeElement('tee', `${name}-split-tee`);
    const queue = (canvas: string) => makeElement('queue', `${name}-split-${canvas}`, { leaky: 'downstream', 'max-size-buffers': 3, 'max-size-bytes': 0, 'max-size-time': 0 });
    const toHorizontal = queue('h');
    const toVertical = queue('v');
    for (const element of [source, tee, toHorizontal, toVertical]) bin.add(element);
    linkPads(staticPad(source, 'src'), staticPad(tee, 'sink'));
    linkPads(requestPad(tee, 'src_%u'), staticPad(toHorizontal, 'sink'));
    linkPads(requestPad(tee, 'src_%u'), staticPad(toVertical, 'sink'));
    bin.addPad(gst.GhostPad.new('src', staticPad(toHorizontal, 'src')));
    bin.addPad(gst.GhostPad.new('vertical', staticPad(toVertical, 'src')));
    this.gst.add(bin);
    const pad = requestPad(horizontal, 'sink_%u');
    const verticalPad = requestPad(this.compositor, 'sink_%u');
    linkPads(staticPad(bin, 'src'), pad);
    linkPads(staticPad(bin, 'vertical'), verticalPad);
    return { bin, pad, verticalPad };
  }

  releasePad(pad: GstPad): void {
    this.compositor.releaseRequestPad(pad);
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
