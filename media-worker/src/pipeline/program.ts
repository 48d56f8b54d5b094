import type { EncoderPreset, EncoderSettings, OutputPolicy, OutputProfile, PipelineErrorCode, PipelineState, PlanInput, PlanOutput, PlanPreview, RenderPlan, SessionStats } from '@onair/protocol';
import { encoderStep, JITTER_LATENCY_DEFAULT_MS, outputsUseVertical, pipelineTransitions } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { linkChain, linkPads, makeElement, numberProperty, requestPad, setProperties, staticPad, structureNumber } from '../gst/elements.ts';
import { loadGst, type GstBin, type GstElement, type GstPad } from '../gst/gst.ts';
import { GstPipeline, type BusError } from '../gst/pipeline.ts';
import { AudioFader } from './audio-fader.ts';
import { CountdownClock } from './countdown-clock.ts';
import { audioTargets, BACKGROUND_ZORDER, videoLayout, type VideoPadLayout } from './layout.ts';
import { DestinationOutput, type OutputStatus } from './outputs/destination-output.ts';
import { FlvFanout } from './outputs/flv-fanout.ts';
import { Recording } from './outputs/recording.ts';
import { Pacer } from './pacer.ts';
import type { OutputEgress } from './outputs/rtmp-egress.ts';
import { buildSource, FilePlayer, MIXER_AUDIO_CAPS } from './sources/index.ts';
import { imageBin } from './sources/image.ts';
import { VerticalCanvas } from './vertical-canvas.ts';

/** GstX264EncPreset values by number, for the presets the ladder uses. */
const X264_PRESETS: Record<number, EncoderPreset> = { 1: 'ultrafast', 2: 'superfast', 3: 'veryfast' };

export interface ProgramEvents {
  outputStatus(status: OutputStatus): void;
  /** A fault the pipeline cannot survive; the process reports it and exits so it is restarted. */
  fatal(code: PipelineErrorCode, message: string): void;
  inputFailed(inputId: string, message: string): void;
  /** Packets of a live input were lost before its decoder: its sender should send a keyframe. */
  keyframeWanted(inputId: string): void;
}

/** One video feed of an input on its compositor pad. */
interface AttachedFeed {
  pad: GstPad;
  /** Its pad on the vertical compositor, when the session has a vertical canvas. */
  verticalPad?: GstPad;
  /** For a network feed: its jitter buffer, whose pushed-packet count tells whether it flows. */
  jitter?: GstElement;
  pushed: number;
  /** Packets the jitter buffer gave up on (lost, or too late), at the last look. */
  missed: number;
  /** Packets moved since the last look (a feed without a jitter buffer always flows). */
  flowing: boolean;
}

interface AttachedInput {
  id: string;
  feeds: AttachedFeed[];
  /** The offline picture, shown while no feed flows. */
  placeholderPad?: GstPad;
  placeholderVerticalPad?: GstPad;
  audioPad?: GstPad;
  /** Index of the feed drawn in the layer, or -1 for the placeholder (or nothing). */
  shown: number;
  /** A network feed of this input has flowed at least once since the pipeline started. */
  everFlowed: boolean;
}

/** Above every layer (plan zorders are at most 10 000). */
const SLATE_ZORDER = 20_000;

/** Seconds of a destination's stream that may wait for a slow server before it skips ahead. */
const OUTPUT_QUEUE_SECONDS = 2;

/** A program this far behind the clock is logged (a frame is 33 ms; the pacer keeps it within a few hundred ms). */
const PROGRAM_BEHIND_MS = 1000;

/**
 * The program of one studio session: every input attached once to a compositor and an
 * audiomixer that both run on a live black/silent background, one H.264 + AAC encode, FLV, and a
 * fan-out to one isolated RTMP connection per destination (outputs/flv-fanout.ts). A new plan version only writes pad properties
 * and adds or removes outputs.
 */
export class ProgramPipeline {
  private readonly gst: GstPipeline;
  private readonly inputs = new Map<string, AttachedInput>();
  private readonly outputs = new Map<string, DestinationOutput>();
  private readonly fader = new AudioFader();
  /** Video files, each playing in a pipeline of its own into its input (sources/file-player.ts). */
  private readonly players = new Map<string, { player: FilePlayer; restartOnShow: boolean }>();
  /** The holding slate's compositor pad (plan.slate), transparent unless every live source dropped. */
  private slatePad: GstPad | undefined;
  /** Since when every live input of the active scene has sent nothing, and since when the slate shows. */
  private droppedSince: number | undefined;
  private slateSince: number | undefined;
  private recording: Recording | undefined;
  /** Parts stopped while the session goes on (a new encoder setting) that are writing out their last fragment. */
  private readonly recordingsFinishing = new Set<Promise<void>>();
  /** The countdown's time left over the program (plan.countdown); absent if its branch could not start. */
  private clock: CountdownClock | undefined;
  /** Taken once per output id: an output removed and added again later is a new one. */
  private readonly continuingOutputs: Set<string>;
  private state: PipelineState = 'starting';
  private plan: RenderPlan;
  private planVersion: number;
  /** The encoded program as FLV tags, for the destinations of the horizontal canvas. */
  private fanout!: FlvFanout;
  private rate!: GstElement;
  /** One per compositor (the program's first), each keeping it on the clock (pacer.ts). */
  private readonly pacers: Pacer[] = [];
  private lastFrames = 0;
  private lastFramesAt = Date.now();
  private fps = 0;
  /** Whether the program's frames were last seen more than PROGRAM_BEHIND_MS behind the clock. */
  private behind = false;
  private backgroundPad: GstPad | undefined;
  /** The 9:16 canvas, while an output takes it (vertical-canvas.ts). */
  private vertical: VerticalCanvas | undefined;
  /** Where the encoder is on its ladder (encoder-ladder.ts). */
  private encoderSettings: EncoderSettings;
  /** Every WebRTC input's jitter buffers (video feeds and audio), all at `jitterLatencyMs`. */
  private readonly jitterBuffers: GstElement[] = [];
  private jitterLatencyMs: number;

  constructor(
    private readonly sessionId: string,
    plan: RenderPlan,
    planVersion: number,
    private readonly policy: OutputPolicy,
    private readonly events: ProgramEvents,
    private readonly logger: Logger,
    /** The process's RTMP egress, which checks every output's server before it connects. */
    private readonly egress: OutputEgress,
    dotDir?: string,
    initialEncoderStep = 0,
    jitterLatencyMs = JITTER_LATENCY_DEFAULT_MS,
    /** Outputs connected in the previous process of this session: they reconnect rather than fail fast. */
    continuingOutputs: readonly string[] = [],
  ) {
    this.continuingOutputs = new Set(continuingOutputs);
    this.jitterLatencyMs = jitterLatencyMs;
    this.plan = plan;
    this.planVersion = planVersion;
    this.encoderSettings = encoderStep(plan.profile, initialEncoderStep);
    this.gst = new GstPipeline(`session-${sessionId.replace(/[^A-Za-z0-9_-]/g, '_')}`, { onError: (e) => this.onBusError(e), onWarning: (w) => this.onBusWarning(w) }, dotDir);
  }

  get currentState(): PipelineState {
    return this.state;
  }

  get version(): number {
    return this.planVersion;
  }

  async start(): Promise<void> {
    const { profile } = this.plan;
    const withVertical = this.plan.vertical && outputsUseVertical(this.plan.outputs);
    this.fanout = await FlvFanout.listen('outputs', this.logger);
    const verticalFanout = withVertical ? await FlvFanout.listen('vertical-outputs', this.logger) : undefined;
    const compositor = this.buildVideo(profile);
    const mixer = this.buildAudio(profile);
    if (this.plan.vertical && verticalFanout) {
      this.vertical = new VerticalCanvas(this.gst, profile, this.encoderSettings.preset);
      this.vertical.build(this.plan.vertical, verticalFanout);
      this.vertical.shareAudio();
      this.pacers.push(this.vertical.pacer);
    }
    // The background, the encoders and the outputs play first; inputs join one by one, so an input
    // that cannot start (a missing file, a UDP port already taken) is reported and left out
    // instead of keeping the whole program from PLAYING.
    this.gst.play();
    this.transition('playing');
    for (const pacer of this.pacers) pacer.start();
    this.plan.inputs.forEach((input, index) => this.attachInput(input, index, compositor, mixer));
    if (this.plan.slate) this.attachSlate(this.plan.slate.path, compositor);
    this.attachClock(compositor);
    this.setOutputs(this.plan.outputs);
    this.setRecording(this.plan.recording);
    this.logger.info({ inputs: this.inputs.size, width: profile.width, height: profile.height, fps: profile.fps, planVersion: this.planVersion, activeSceneId: this.plan.activeSceneId }, 'pipeline playing');
  }

  private attachInput(input: PlanInput, index: number, compositor: GstElement, mixer: GstElement): void {
    const name = `in${index}`;
    const attached: AttachedInput = { id: input.id, feeds: [], shown: -1, everFlowed: false };
    const added: { bin: GstBin; pad: GstPad; aggregator: GstElement; verticalPad?: GstPad }[] = [];
    const link = (bin: GstBin, aggregator: GstElement): GstPad => {
      this.gst.add(bin);
      const pad = requestPad(aggregator, 'sink_%u');
      added.push({ bin, pad, aggregator });
      linkPads(staticPad(bin, 'src'), pad);
      return pad;
    };
    // A picture goes to the vertical compositor too when there is one: decoded once, split by a tee.
    const linkVideo = (bin: GstBin, part: string): { pad: GstPad; verticalPad?: GstPad } => {
      if (!this.vertical) return { pad: link(bin, compositor) };
      const split = this.vertical.fanOut(bin, `${name}-${part}`, compositor);
      added.push({ bin: split.bin, pad: split.pad, aggregator: compositor, verticalPad: split.verticalPad });
      return split;
    };
    try {
      const bins = buildSource(input, this.plan.profile, name);
      bins.video.forEach((feed, f) => {
        const { pad, verticalPad } = linkVideo(feed.bin, `feed${f}`);
        const jitter = feed.jitter ? (feed.bin.getByName(feed.jitter) ?? undefined) : undefined;
        attached.feeds.push({ pad, verticalPad, jitter, pushed: 0, missed: 0, flowing: !jitter });
      });
      if (bins.placeholder) {
        const { pad, verticalPad } = linkVideo(bins.placeholder, 'placeholder');
        attached.placeholderPad = pad;
        attached.placeholderVerticalPad = verticalPad;
      }
      attached.shown = attached.feeds.findIndex((f) => f.flowing);
      const layout = videoLayout(this.plan).get(input.id);
      if (layout) this.layoutInput(attached, layout);
      if (bins.audio) {
        attached.audioPad = link(bins.audio, mixer);
        this.fader.add(input.id, attached.audioPad, audioTargets(this.plan).get(input.id)!, { fadeIn: input.kind === 'rtp' && input.audio?.fadeIn === true });
      }
      const audioJitter = bins.audio && bins.audioJitter ? bins.audio.getByName(bins.audioJitter) : null;
      const jitterBuffers = [...attached.feeds.map((f) => f.jitter), audioJitter].filter((j): j is GstElement => j !== undefined && j !== null);
      for (const jitter of jitterBuffers) jitter.latency = this.jitterLatencyMs;
      for (const { bin } of added) if (!bin.syncStateWithParent()) throw new Error(`${input.kind} input could not start`);
      this.jitterBuffers.push(...jitterBuffers);
      this.inputs.set(input.id, attached);
      if (bins.filePlayer) this.startPlayer(input.id, name, bins.filePlayer);
    } catch (err) {
      for (const { bin, pad, aggregator, verticalPad } of added) {
        bin.setState(loadGst().State.NULL);
        aggregator.releaseRequestPad(pad);
        if (verticalPad) this.vertical?.releasePad(verticalPad);
        this.gst.remove(bin);
      }
      this.fader.remove(input.id);
      const message = err instanceof Error ? err.message : String(err);
      this.logger.warn({ inputId: input.id, detail: message }, 'input left out');
      this.events.inputFailed(input.id, message);
    }
  }

  /** The slate picture, attached like an input but never part of a scene; a missing file leaves the program without one. */
  private attachSlate(path: string, compositor: GstElement): void {
    try {
      const bin = imageBin('slate', path, this.plan.profile, 'slate');
      this.gst.add(bin);
      const pad = requestPad(compositor, 'sink_%u');
      linkPads(staticPad(bin, 'src'), pad);
      this.slatePad = pad;
      this.layoutSlate();
      if (!bin.syncStateWithParent()) throw new Error('the slate could not start');
    } catch (err) {
      this.slatePad = undefined;
      this.logger.warn({ detail: err instanceof Error ? err.message : String(err) }, 'holding slate left out');
    }
  }

  /** The countdown plate; without it (rsvg missing, say) the countdown scene shows without its time. */
  private attachClock(compositor: GstElement): void {
    try {
      const clock = new CountdownClock(this.gst, this.plan.profile);
      const vertical = this.vertical && this.plan.vertical ? { canvas: this.vertical, width: this.plan.vertical.width, height: this.plan.vertical.height } : undefined;
      clock.attach(compositor, vertical);
      this.clock = clock;
      this.setCountdown(this.plan.countdown);
    } catch (err) {
      this.clock = undefined;
      this.logger.warn({ detail: err instanceof Error ? err.message : String(err) }, 'countdown plate left out');
    }
  }

  private setCountdown(countdown: RenderPlan['countdown']): void {
    if (!this.clock) return;
    if (this.clock.set(countdown)) this.logger.info({ endsAt: countdown ? new Date(countdown.endsAt).toISOString() : null }, countdown ? 'countdown shown' : 'countdown hidden');
    this.layoutClock();
  }

  private layoutClock(): void {
    if (this.clock) this.clock.place(this.scaled(this.clock.layout()));
  }

  private layoutSlate(): void {
    if (!this.slatePad) return;
    const { width, height } = this.encoderSettings;
    Object.assign(this.slatePad, { xpos: 0, ypos: 0, width, height, zorder: SLATE_ZORDER, alpha: this.slateSince === undefined ? 0 : 1 });
  }

  /**
   * The holding slate: when the active scene shows live inputs, at least one of them has sent
   * before, and none sends now, for the plan's `afterMs`, the slate covers the program (the
   * outputs go on sending it, so platforms keep the broadcast); the first packets of any of them
   * take it away. Inputs that never sent (a camera not turned on yet) do not count as dropped.
   */
  private checkSlate(now: number): void {
    if (!this.slatePad || !this.plan.slate) return;
    const scene = this.plan.scenes.find((s) => s.id === this.plan.activeSceneId);
    const shown = new Set(scene?.placements.filter((p) => p.visible && p.alpha > 0).map((p) => p.inputId));
    const live = [...this.inputs.values()].filter((i) => shown.has(i.id) && i.feeds.some((f) => f.jitter));
    const dropped = live.some((i) => i.everFlowed) && !live.some((i) => i.feeds.some((f) => f.flowing));
    if (!dropped) {
      this.droppedSince = undefined;
      if (this.slateSince !== undefined) {
        this.logger.info({ seconds: Math.round((now - this.slateSince) / 1000) }, 'a live source is back: holding slate off');
        this.slateSince = undefined;
        this.layoutSlate();
      }
      return;
    }
    this.droppedSince ??= now;
    if (this.slateSince === undefined && now - this.droppedSince >= this.plan.slate.afterMs) {
      this.slateSince = this.droppedSince;
      this.logger.info('every live source dropped: holding slate on');
      this.layoutSlate();
    }
  }

  /** A bad file fails its own pipeline only: the input is reported and shows black (or its last frame). */
  private startPlayer(inputId: string, name: string, file: NonNullable<ReturnType<typeof buildSource>['filePlayer']>): void {
    const player = new FilePlayer(`${this.gst.name}-${name}`, file.path, file.channel, file.loop, this.plan.profile.fps, { failed: (message) => this.events.inputFailed(inputId, message) }, this.logger);
    try {
      player.start();
      this.players.set(inputId, { player, restartOnShow: file.restartOnShow });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.logger.warn({ inputId, detail: message }, 'video file left out');
      this.events.inputFailed(inputId, message);
    }
  }

  /** Draws the input's shown feed (or its placeholder) where the active scene puts it; the rest stay transparent. */
  private layoutInput(input: AttachedInput, planned: VideoPadLayout): void {
    const layout = this.scaled(planned);
    input.feeds.forEach((feed, i) => Object.assign(feed.pad, i === input.shown ? layout : { ...layout, alpha: 0 }));
    if (input.placeholderPad) Object.assign(input.placeholderPad, input.shown === -1 ? layout : { ...layout, alpha: 0 });
    this.layoutVertical(input);
  }

  /** The same for the vertical compositor, at the vertical scene's place (never stepped down). */
  private layoutVertical(input: AttachedInput): void {
    const layout = this.vertical ? VerticalCanvas.layout(this.plan).get(input.id) : undefined;
    if (!layout) return;
    input.feeds.forEach((feed, i) => feed.verticalPad && Object.assign(feed.verticalPad, i === input.shown ? layout : { ...layout, alpha: 0 }));
    if (input.placeholderVerticalPad) Object.assign(input.placeholderVerticalPad, input.shown === -1 ? layout : { ...layout, alpha: 0 });
  }

  /**
   * Applies a whole plan at a newer version. Inputs and profile are fixed for the life of the
   * pipeline (the supervisor rebuilds for those); the rest is pad properties and outputs.
   */
  apply(plan: RenderPlan, version: number): void {
    if (version <= this.planVersion && version !== 0) return;
    const sceneChanged = plan.activeSceneId !== this.plan.activeSceneId;
    this.plan = plan;
    this.planVersion = version;
    const layout = videoLayout(plan);
    const audio = audioTargets(plan);
    for (const input of this.inputs.values()) {
      const pad = layout.get(input.id);
      if (pad) this.layoutInput(input, pad);
      const target = audio.get(input.id);
      if (input.audioPad && target) this.fader.set(input.id, target);
    }
    this.setOutputs(plan.outputs);
    this.setRecording(plan.recording);
    this.setCountdown(plan.countdown);
    if (sceneChanged) {
      const shown = new Set(plan.scenes.find((s) => s.id === plan.activeSceneId)?.placements.filter((p) => p.visible).map((p) => p.inputId));
      for (const [inputId, { player, restartOnShow }] of this.players) if (restartOnShow && shown.has(inputId)) player.restart();
    }
  }

  /**
   * Sets every WebRTC input's jitter buffer to `ms` live (the worker measured what its senders
   * need). Audio and video of every input keep one latency, so they stay in step with each other
   * and no input's frames wait at the compositor for another's. The pipeline then recalculates its
   * latency, so the compositor and the mixer wait for the new deadline; the program's frames keep
   * their rate.
   */
  setJitterLatency(ms: number): void {
    if (ms === this.jitterLatencyMs) return;
    this.logger.info({ from: this.jitterLatencyMs, to: ms }, 'jitter buffer latency');
    this.jitterLatencyMs = ms;
    for (const jitter of this.jitterBuffers) jitter.latency = ms;
    if (this.jitterBuffers.length > 0) this.gst.recalculateLatency();
  }

  /** Adds, removes or replaces destinations; the ones that did not change are not touched. */
  setOutputs(outputs: readonly PlanOutput[]): void {
    const wanted = new Map(outputs.map((o) => [o.id, o]));
    for (const [id, output] of this.outputs) {
      const next = wanted.get(id);
      if (!next || next.url !== output.spec.url || next.key !== output.spec.key || (next.canvas ?? 'horizontal') !== (output.spec.canvas ?? 'horizontal')) {
        output.detach();
        this.outputs.delete(id);
        this.events.outputStatus({ outputId: id, state: 'stopped' });
      }
    }
    for (const spec of outputs) {
      if (this.outputs.has(spec.id)) continue;
      // Each output hangs from the encode of its canvas; the supervisor restarts the pipeline with
      // a vertical canvas when the first vertical output arrives, so it is there by now.
      const vertical = spec.canvas === 'vertical' ? this.vertical : undefined;
      if (spec.canvas === 'vertical' && !vertical) this.logger.warn({ outputId: spec.id }, 'vertical output without a vertical canvas: it gets the horizontal one');
      const { videoBitrateKbps, audioBitrateKbps } = this.plan.profile;
      const output = new DestinationOutput(
        spec,
        vertical ? vertical.fanout : this.fanout,
        this.policy,
        (s) => this.events.outputStatus(s),
        this.logger,
        this.egress,
        vertical ? () => void vertical.requestKeyframe() : () => this.requestKeyframe(),
        this.continuingOutputs.delete(spec.id),
        // About 2 s of the stream may wait for a slow server before it skips ahead.
        Math.ceil(((videoBitrateKbps + audioBitrateKbps) * 1000 * OUTPUT_QUEUE_SECONDS) / 8),
      );
      this.outputs.set(spec.id, output);
      output.attach();
    }
  }

  /** Starts or stops recording (a tee branch of the encoded streams, see outputs/recording.ts). */
  setRecording(spec: RenderPlan['recording']): void {
    // Kept in the plan: a new encoder setting goes on recording into the same folder.
    const { recording: _previous, ...rest } = this.plan;
    this.plan = spec ? { ...rest, recording: spec } : rest;
    if (spec && !this.recording) {
      const videoTee = this.gst.bin.getByName('video-encoded');
      const audioTee = this.gst.bin.getByName('audio-encoded');
      if (!videoTee || !audioTee) return;
      try {
        const recording = new Recording(this.gst.bin, videoTee, audioTee, spec.dir, this.logger, () => this.requestKeyframe());
        recording.start();
        this.recording = recording;
      } catch (err) {
        // The broadcast goes on unrecorded rather than not at all.
        this.logger.error({ detail: err instanceof Error ? err.message : String(err) }, 'recording could not start');
      }
    } else if (!spec && this.recording) {
      this.stopRecording();
    }
  }

  /** Ends the current part; its last fragment is written out in the background (finishRecording waits for it). */
  private stopRecording(): void {
    const recording = this.recording;
    this.recording = undefined;
    if (!recording) return;
    const finishing: Promise<void> = recording.stop().finally(() => this.recordingsFinishing.delete(finishing));
    this.recordingsFinishing.add(finishing);
  }

  /** Ends the recording cleanly (every part's last fragment written), before a stop. */
  async finishRecording(): Promise<void> {
    this.stopRecording();
    await Promise.all([...this.recordingsFinishing]);
  }

  /** Once a second: output watchdogs and the figures sent to the worker. */
  tick(now = Date.now()): SessionStats {
    for (const output of this.outputs.values()) output.tick(now);
    this.checkFeeds();
    this.checkSlate(now);
    this.checkPace();
    const frames = numberProperty(this.rate, 'out');
    const elapsed = (now - this.lastFramesAt) / 1000;
    if (elapsed > 0.2) {
      this.fps = Math.max(0, (frames - this.lastFrames) / elapsed);
      this.lastFrames = frames;
      this.lastFramesAt = now;
    }
    const outputs = [...this.outputs.values()].map((o) => o.stats());
    return {
      sessionId: this.sessionId,
      at: new Date(now).toISOString(),
      state: this.state,
      fps: Math.round(this.fps * 10) / 10,
      framesOut: frames,
      // A frame the compositor skipped to stay on the clock (pacer.ts) goes out as a duplicate.
      droppedFrames: numberProperty(this.rate, 'drop') + numberProperty(this.rate, 'duplicate'),
      bitrateKbps: outputs.reduce((sum, o) => sum + o.bitrateKbps, 0),
      planVersion: this.planVersion,
      outputs,
      encoder: this.encoderNow(),
      slateSince: this.slateSince === undefined ? null : new Date(this.slateSince).toISOString(),
      ...(this.recording ? { recordingPath: this.recording.path } : {}),
    };
  }

  /**
   * Operators see when the program runs behind real time (its output delayed): the pacer
   * (pacer.ts) keeps it within a few hundred ms, so this names a machine that cannot keep up.
   */
  private checkPace(): void {
    const behindMs = this.pacers[0]?.behindMs;
    if (behindMs === undefined || this.state !== 'playing') return;
    if (!this.behind && behindMs > PROGRAM_BEHIND_MS) {
      this.behind = true;
      this.logger.warn({ behindMs }, 'program behind the clock');
    } else if (this.behind && behindMs < PROGRAM_BEHIND_MS / 4) {
      this.behind = false;
      this.logger.info({ behindMs }, 'program on the clock again');
    }
  }

  /**
   * Moves the live encoder to `step` of its ladder. A preset is only read when x264 opens, so the
   * encoder is re-opened in place: the valve before it drops frames while it goes to READY (which
   * waits for the frame it may be encoding) and back to PLAYING; when the valve opens it repeats
   * the stream's caps and segment, x264 opens with the new preset and starts with a keyframe, and
   * h264parse and flvmux carry the new sequence header to every output, which stay connected.
   * A smaller size is composited, not scaled after the fact (scaling the finished 720p picture
   * cost about what x264 saved on it, measured with bench/pipeline-bench.ts): the program's caps,
   * the background and every layer shrink together, and x264 re-opens on the new caps by itself.
   * Measured: the valve is closed for about 2 ms (under one frame at 30 fps).
   */
  setEncoderStep(step: number): EncoderSettings {
    const next = encoderStep(this.plan.profile, step);
    const current = this.encoderSettings;
    const encoder = this.gst.bin.getByName('video-encoder');
    const valve = this.gst.bin.getByName('video-encoder-valve');
    if (!encoder || !valve || this.state !== 'playing') return current;
    // A new preset or size is a new H.264 stream (other parameter sets, other caps), which one MP4
    // track cannot hold: the recording ends its part before the change and goes on in the next one.
    const recordingGoesOn = this.recording !== undefined && (next.preset !== current.preset || next.width !== current.width || next.height !== current.height);
    if (recordingGoesOn) this.stopRecording();
    if (next.preset !== current.preset) {
      setProperties(valve, { drop: true });
      encoder.setState(loadGst().State.READY);
      setProperties(encoder, { 'speed-preset': next.preset });
      encoder.syncStateWithParent();
      setProperties(valve, { drop: false });
    }
    this.encoderSettings = next;
    if (next.width !== current.width || next.height !== current.height) this.resizeProgram(next.width, next.height);
    if (recordingGoesOn) this.setRecording(this.plan.recording);
    this.logger.info({ step: next.step, preset: next.preset, width: next.width, height: next.height }, 'encoder step changed');
    return next;
  }

  /**
   * A pad's place in the picture as composited now: the plan's coordinates are the profile's, and
   * a session stepped down to a smaller size composites (and encodes) the whole program smaller.
   */
  private scaled(layout: VideoPadLayout): VideoPadLayout {
    const { width, height } = this.plan.profile;
    const { width: w, height: h } = this.encoderSettings;
    if (w === width && h === height) return layout;
    const kx = w / width;
    const ky = h / height;
    return { ...layout, xpos: Math.round(layout.xpos * kx), ypos: Math.round(layout.ypos * ky), width: Math.max(1, Math.round(layout.width * kx)), height: Math.max(1, Math.round(layout.height * ky)) };
  }

  /** Composites at `width`×`height` from now on: the program's caps, the background, every layer. */
  private resizeProgram(width: number, height: number): void {
    const programCaps = this.gst.bin.getByName('program-caps');
    const backgroundCaps = this.gst.bin.getByName('background-caps');
    if (!programCaps || !backgroundCaps || !this.backgroundPad) return;
    Object.assign(this.backgroundPad, { width, height });
    this.layoutSlate();
    this.layoutClock();
    const layout = videoLayout(this.plan);
    for (const input of this.inputs.values()) {
      const pad = layout.get(input.id);
      if (pad) this.layoutInput(input, pad);
    }
    setProperties(backgroundCaps, { caps: `video/x-raw,format=AYUV,width=${width},height=${height},framerate=${this.plan.profile.fps}/1` });
    setProperties(programCaps, { caps: this.programCaps(width, height) });
  }

  private programCaps(width: number, height: number): string {
    return `video/x-raw,format=AYUV,width=${width},height=${height},framerate=${this.plan.profile.fps}/1,pixel-aspect-ratio=1/1`;
  }

  /** The encoder's settings as the encoder has them (its preset, the size of the frames it takes). */
  private encoderNow(): EncoderSettings {
    const encoder = this.gst.bin.getByName('video-encoder');
    const caps = encoder?.getStaticPad('sink')?.getCurrentCaps()?.toString() ?? '';
    const width = Number(/width=\(int\)(\d+)/.exec(caps)?.[1] ?? this.encoderSettings.width);
    const height = Number(/height=\(int\)(\d+)/.exec(caps)?.[1] ?? this.encoderSettings.height);
    const preset = X264_PRESETS[Number(encoder?.speedPreset)] ?? this.encoderSettings.preset;
    return { ...this.encoderSettings, preset, width, height };
  }

  /**
   * A WebRTC track that stops leaves its last frame in the compositor, frozen; one that changes
   * codec arrives on another feed. Once a second, every network feed whose jitter buffer pushed
   * packets since the last look counts as flowing (and one that also lost packets asks for a
   * keyframe); the layer shows a flowing feed, or
   * the placeholder ('Camera Offline', …) when none does. Only pad properties change: nothing is
   * relinked or restarted either way.
   */
  private checkFeeds(): void {
    const layout = videoLayout(this.plan);
    for (const input of this.inputs.values()) {
      for (const feed of input.feeds) {
        if (!feed.jitter) continue;
        const stats = feed.jitter.stats as { toString(): string } | undefined;
        const pushed = structureNumber(stats, 'num-pushed');
        const missed = structureNumber(stats, 'num-lost') + structureNumber(stats, 'num-late');
        const was = feed.flowing;
        feed.flowing = pushed !== feed.pushed;
        if (feed.flowing) input.everFlowed = true;
        // Operators read from this when a picture froze or a source went to its placeholder.
        if (was !== feed.flowing && input.everFlowed) this.logger.info({ inputId: input.id, feed: input.feeds.indexOf(feed), pushed, missed }, feed.flowing ? 'input feed flows' : 'input feed stopped');
        // Losses the sender's own loss detection cannot see (dropped here, after the network):
        // the decoder's picture is damaged until the next keyframe.
        if (feed.flowing && missed > feed.missed) this.events.keyframeWanted(input.id);
        feed.pushed = pushed;
        feed.missed = missed;
      }
      // The feed shown stays while it flows (a codec switch overlaps for a moment).
      const shown = input.feeds[input.shown]?.flowing ? input.shown : input.feeds.findIndex((f) => f.flowing);
      if (shown === input.shown) continue;
      input.shown = shown;
      const pad = layout.get(input.id);
      if (pad) this.layoutInput(input, pad);
    }
  }

  stop(): void {
    if (this.state === 'stopped' || this.state === 'failed') return;
    this.transition('stopping');
    this.fader.stop();
    this.clock?.stop();
    for (const pacer of this.pacers) pacer.stop();
    for (const { player } of this.players.values()) player.stop();
    this.players.clear();
    for (const output of this.outputs.values()) output.detach();
    this.outputs.clear();
    this.gst.stop();
    this.fanout?.close();
    this.vertical?.fanout?.close();
    this.transition('stopped');
  }

  async dumpDot(reason: string): Promise<string | undefined> {
    return this.gst.dumpDot(reason);
  }

  private buildVideo(profile: OutputProfile): GstElement {
    const { fps } = profile;
    // The program's size: the profile's, or smaller when the session was stepped down to a smaller size.
    const { width, height } = this.encoderSettings;
    // Composited in AYUV, converted to I420 only for the encoder: with an alpha-less format on its
    // source pad, GStreamer 1.22's compositor drops every alpha format from its sink caps, so an
    // RGBA logo or overlay would not even link, and per-pixel transparency would be lost.
    const rawCaps = this.programCaps(width, height);
    const background = [
      makeElement('videotestsrc', 'background', { 'is-live': true, pattern: 'black' }),
      // In the program's own format: unconstrained, videotestsrc would take the compositor's first
      // listed format (16-bit RGBA) and the black would be converted on every frame.
      makeElement('capsfilter', 'background-caps', { caps: `video/x-raw,format=AYUV,width=${width},height=${height},framerate=${fps}/1` }),
    ];
    const compositor = makeElement('compositor', 'compositor', { background: 'black' });
    const chain = [
      compositor,
      makeElement('capsfilter', 'program-caps', { caps: rawCaps }),
      // Passes frames through at the program rate; its counters give fps and dropped frames
      // without a callback per buffer.
      makeElement('videorate', 'program-rate', { 'skip-to-first': true }),
      makeElement('tee', 'program-tee', { 'allow-not-linked': true }),
      makeElement('videoconvert', 'video-encoder-convert'),
      makeElement('capsfilter', 'video-encoder-caps', { caps: 'video/x-raw,format=I420' }),
      makeElement('queue', 'encoder-queue', { 'max-size-buffers': 0, 'max-size-bytes': 0, 'max-size-time': 500_000_000 }),
      // Open but for the moment the encoder is re-opened with another preset (setEncoderStep).
      makeElement('valve', 'video-encoder-valve'),
      makeElement('x264enc', 'video-encoder', {
        bitrate: profile.videoBitrateKbps,
        pass: 'cbr',
        'key-int-max': profile.keyframeIntervalSeconds * fps,
        // No keyframes on scene cuts: a keyframe every 2 s, as platforms ask, plus one when a
        // destination connects (requestKeyframe), from which the 2 s grid restarts, so keyframes
        // are never more than 2 s apart. HRD filler keeps the rate constant even on a still
        // picture, as CBR ingest expects.
        'option-string': 'scenecut=0:nal-hrd=cbr',
        tune: 'zerolatency',
        'speed-preset': this.encoderSettings.preset,
        threads: profile.encoderThreads,
      }),
      makeElement('capsfilter', 'h264-caps', { caps: 'video/x-h264,profile=main' }),
      makeElement('h264parse', 'h264-parse'),
      // The encoded video for the muxer of the outputs and, while recording, the recording's.
      makeElement('tee', 'video-encoded', { 'allow-not-linked': true }),
      makeElement('queue', 'video-mux-queue', { 'max-size-buffers': 0, 'max-size-bytes': 0, 'max-size-time': 2_000_000_000 }),
    ];
    for (const element of [...background, ...chain]) this.gst.add(element);
    linkChain(background);
    linkChain(chain);
    const backgroundPad = requestPad(compositor, 'sink_%u');
    linkPads(staticPad(background[1]!, 'src'), backgroundPad);
    Object.assign(backgroundPad, { xpos: 0, ypos: 0, width, height, zorder: BACKGROUND_ZORDER, alpha: 1 });
    this.backgroundPad = backgroundPad;
    this.pacers.push(new Pacer(this.gst.bin, compositor));
    this.rate = chain[2]!;
    if (this.plan.preview) this.buildPreview(chain[3]!, this.plan.preview);

    const mux = makeElement('flvmux', 'mux', { streamable: true });
    const toFanout = this.fanout.elements();
    for (const element of [mux, ...toFanout]) this.gst.add(element);
    linkPads(staticPad(chain[chain.length - 1]!, 'src'), requestPad(mux, 'video'));
    linkChain([mux, ...toFanout]);
    return compositor;
  }

  /**
   * Asks the encoder for a keyframe now (GstVideo's upstream force-key-unit event, with the stream
   * headers): a destination that just connected decodes from its first frames instead of waiting
   * for the next keyframe of the 2 s grid. The GOP restarts there, so keyframes stay at most 2 s
   * apart as platforms require. Called from the JS thread; the encoder only sets a flag.
   */
  requestKeyframe(): void {
    const Gst = loadGst();
    const pad = this.gst.bin.getByName('video-encoder')?.getStaticPad('src');
    const structure = Gst.Structure.newFromString('GstForceKeyUnit, all-headers=(boolean)true');
    if (!pad || !structure) return;
    if (!pad.sendEvent(Gst.Event.newCustom(Gst.EventType.CUSTOM_UPSTREAM, structure))) this.logger.debug('keyframe request not taken');
  }

  /**
   * The studio's live preview: its own small VP8 encode (the output's H.264 has a fixed 2 s GOP and
   * profile a browser may not take), tuned for speed, as RTP to the WebRTC endpoint. A leaky queue
   * keeps a slow preview from ever holding back the program.
   */
  private buildPreview(tee: GstElement, preview: PlanPreview): void {
    const { fps } = this.plan.profile;
    const branch = [
      makeElement('queue', 'preview-queue', { leaky: 'downstream', 'max-size-buffers': 2, 'max-size-bytes': 0, 'max-size-time': 0 }),
      makeElement('videoscale', 'preview-scale'),
      makeElement('videoconvert', 'preview-convert'),
      makeElement('capsfilter', 'preview-caps', { caps: `video/x-raw,format=I420,width=${preview.width},height=${preview.height}` }),
      makeElement('vp8enc', 'preview-encoder', {
        deadline: 1,
        'cpu-used': 8,
        'end-usage': 'cbr',
        'target-bitrate': preview.bitrateKbps * 1000,
        // A peer that joins, or asks after a loss, waits at most a second for a picture.
        'keyframe-max-dist': fps,
        'error-resilient': 'default',
        'lag-in-frames': 0,
        threads: 1,
      }),
      makeElement('rtpvp8pay', 'preview-pay', { pt: preview.payloadType, mtu: 1200, 'picture-id-mode': '15-bit' }),
      makeElement('udpsink', 'preview-sink', { host: '127.0.0.1', port: preview.port, sync: false, async: false }),
    ];
    for (const element of branch) this.gst.add(element);
    linkChain(branch);
    linkPads(requestPad(tee, 'src_%u'), staticPad(branch[0]!, 'sink'));
  }

  private buildAudio(profile: OutputProfile): GstElement {
    const silence = [
      makeElement('audiotestsrc', 'silence', { 'is-live': true, wave: 'silence' }),
      makeElement('capsfilter', 'silence-caps', { caps: MIXER_AUDIO_CAPS }),
    ];
    const mixer = makeElement('audiomixer', 'mixer');
    const chain = [
      mixer,
      makeElement('capsfilter', 'mixer-caps', { caps: MIXER_AUDIO_CAPS }),
      makeElement('audioconvert', 'encoder-convert'),
      makeElement('audioresample', 'encoder-resample'),
      makeElement('avenc_aac', 'audio-encoder', { bitrate: profile.audioBitrateKbps * 1000 }),
      makeElement('aacparse', 'aac-parse'),
      makeElement('tee', 'audio-encoded', { 'allow-not-linked': true }),
      makeElement('queue', 'audio-mux-queue', { 'max-size-buffers': 0, 'max-size-bytes': 0, 'max-size-time': 2_000_000_000 }),
    ];
    for (const element of [...silence, ...chain]) this.gst.add(element);
    linkChain(silence);
    linkChain(chain);
    linkPads(staticPad(silence[1]!, 'src'), requestPad(mixer, 'sink_%u'));
    const mux = this.gst.bin.getByName('mux');
    if (!mux) throw new Error('build the video branch first');
    linkPads(staticPad(chain[chain.length - 1]!, 'src'), requestPad(mux, 'audio'));
    return mixer;
  }

  /** Stream keys out of any text GStreamer produced, in case an element quoted its location. */
  private scrub(text: string): string {
    let out = text;
    for (const o of this.outputs.values()) if (o.spec.key && o.spec.key.length >= 4) out = out.split(o.spec.key).join('[redacted]');
    return out;
  }

  private onBusError(raw: BusError): void {
    const error: BusError = { ...raw, message: this.scrub(raw.message), debug: this.scrub(raw.debug) };
    if (error.source.some((name) => name.startsWith('slate-'))) {
      // The slate's picture failed: the program goes on without a slate rather than stopping.
      this.logger.warn({ detail: error.message }, 'holding slate failed');
      if (this.slatePad) Object.assign(this.slatePad, { alpha: 0 });
      this.slatePad = undefined;
      return;
    }
    if (error.source.some((name) => name.startsWith('countdown-'))) {
      // The countdown's plate failed: the countdown scene goes on without its time drawn.
      this.logger.warn({ detail: error.message }, 'countdown plate failed');
      this.clock?.hide();
      this.clock = undefined;
      return;
    }
    // Every element of input N is named `inN-…`: its errors are that input's, even after it was left out.
    const inputIndex = error.source.map((n) => /^in(\d+)-/.exec(n)?.[1]).find((i) => i !== undefined);
    if (inputIndex !== undefined) {
      const inputId = this.plan.inputs[Number(inputIndex)]?.id ?? `in${inputIndex}`;
      if (this.inputs.has(inputId)) {
        this.logger.warn({ inputId, detail: error.message }, 'input failed');
        this.events.inputFailed(inputId, error.message);
      } else {
        this.logger.debug({ inputId, detail: error.message }, 'error of an input already left out');
      }
      return;
    }
    this.logger.error({ element: error.source[0], detail: error.message, debug: error.debug }, 'pipeline error');
    void this.gst.dumpDot('error').then((file) => file && this.logger.error({ file }, 'pipeline graph dumped'));
    this.transition('failed');
    this.events.fatal('PIPELINE_FAILED', error.message);
  }

  private onBusWarning(warning: BusError): void {
    this.logger.warn({ element: warning.source[0], detail: this.scrub(warning.message) }, 'pipeline warning');
  }

  private transition(next: PipelineState): void {
    if (!pipelineTransitions[this.state].includes(next)) throw new Error(`pipeline ${this.state} → ${next} is not allowed`);
    this.state = next;
  }
}
