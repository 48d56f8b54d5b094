import type {
  ChatOnAir,
  ChatOnScreenDrawn,
  EncoderPreset,
  EncoderSettings,
  OutputPolicy,
  PipelineErrorCode,
  PipelineState,
  PlanOutput,
  RenderPlan,
  SessionStats,
} from '@onair/protocol';
import { encoderStep, JITTER_LATENCY_DEFAULT_MS, outputsUseVertical, pipelineTransitions } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { numberProperty, setProperties, structureNumber } from '../gst/elements.ts';
import { loadGst, type GstElement } from '../gst/gst.ts';
import { GstPipeline, type BusError } from '../gst/pipeline.ts';
import { AudioFader } from './audio-fader.ts';
import { buildProgramAudio } from './build/audio.ts';
import { buildProgramVideo } from './build/video.ts';
import { faultOf, scrubKeys } from './bus-errors.ts';
import { CountdownClock } from './countdown-clock.ts';
import { InputSet } from './inputs/input-set.ts';
import { ChatLowerThird } from './lower-third.ts';
import { FlvSink } from './outputs/flv-fanout.ts';
import { Recorder } from './outputs/recorder.ts';
import { Pacer } from './pacer.ts';
import { HoldingSlate } from './slate.ts';
import { VerticalCanvas } from './vertical-canvas.ts';

/** GstX264EncPreset values by number, for the presets the ladder uses. */
const X264_PRESETS: Record<number, EncoderPreset> = { 1: 'ultrafast', 2: 'superfast', 3: 'veryfast' };

/** Where the worker takes each canvas's FLV (its FlvFanout, which feeds the destinations). */
export interface OutputPorts {
  horizontal: number;
  vertical: number;
}

export interface ProgramEvents {
  /** A fault the pipeline cannot survive; the process reports it and exits so it is restarted. */
  fatal(code: PipelineErrorCode, message: string): void;
  inputFailed(inputId: string, message: string): void;
  /** Packets of a live input were lost before its decoder: its sender should send a keyframe. */
  keyframeWanted(inputId: string): void;
  /** The chat message drawn over the program changed (null: none): it is in the frames from now on. */
  chatOnAir?(onAir: ChatOnAir | null): void;
}

/**
 * What a live input adds to its jitter buffer's latency before its frames reach the compositor
 * (depayloading, decoding, keying, its queue): measured under 20 ms for VP8 and H.264 at 720p.
 */
const INPUT_DECODE_MARGIN_MS = 50;

/** A program this far behind the clock is logged (a frame is 33 ms; the pacer keeps it within a few hundred ms). */
const PROGRAM_BEHIND_MS = 1000;

/**
 * The program of one studio session: a compositor and an audiomixer that both run on a live
 * black/silent background, one H.264 + AAC encode, FLV, and a fan-out to one isolated RTMP
 * connection per destination (outputs/). Everything a creator changes while live is applied to the
 * running pipeline (issue 35): inputs join and leave it (inputs/), the vertical canvas is attached
 * when the first vertical destination comes and detached when the last goes, scene switches and
 * layer moves only write pad properties, destinations come and go on their own connections, and the
 * recording goes on in one part. Only a new output profile takes a new pipeline process.
 *
 * Where the parts are: build/ makes the fixed graph (video, audio, preview); inputs/ attaches and
 * detaches inputs; outputs/ holds destinations and the recording; slate.ts, countdown-clock.ts and
 * pacer.ts are the clocks and overlays that run beside; bus-errors.ts says whose fault an error is.
 */
export class ProgramPipeline {
  private readonly gst: GstPipeline;
  private inputs!: InputSet;
  private readonly fader = new AudioFader();
  private readonly slate: HoldingSlate;
  private recorder!: Recorder;
  /** The countdown's time left over the program (plan.countdown); absent if its branch could not start. */
  private clock: CountdownClock | undefined;
  /** The chat message on screen over the program (plan.chatOnScreen); absent if its branch could not start. */
  private lowerThird: ChatLowerThird | undefined;
  private state: PipelineState = 'starting';
  private plan: RenderPlan;
  private planVersion: number;
  /** The encoded program as FLV, to the worker's fan-out of the horizontal canvas. */
  private sink!: FlvSink;
  private compositor!: GstElement;
  private mixer!: GstElement;
  private rate!: GstElement;
  /** Keeps the program's compositor on the clock (pacer.ts). */
  private pacer!: Pacer;
  private lastFrames = 0;
  private lastFramesAt = Date.now();
  private fps = 0;
  /** Whether the program's frames were last seen more than PROGRAM_BEHIND_MS behind the clock. */
  private behind = false;
  /** The 9:16 canvas, while an output takes it (vertical-canvas.ts). */
  private vertical: VerticalCanvas | undefined;
  /** Where the encoder is on its ladder (encoder-ladder.ts). */
  private encoderSettings: EncoderSettings;
  private jitterLatencyMs: number;
  private collectTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sessionId: string,
    plan: RenderPlan,
    planVersion: number,
    _policy: OutputPolicy,
    private readonly events: ProgramEvents,
    private readonly logger: Logger,
    /** Where the worker takes each canvas's FLV; its destinations' connections live there. */
    private readonly outputPorts: OutputPorts,
    dotDir?: string,
    initialEncoderStep = 0,
    jitterLatencyMs = JITTER_LATENCY_DEFAULT_MS,
  ) {
    this.jitterLatencyMs = jitterLatencyMs;
    this.plan = plan;
    this.planVersion = planVersion;
    this.encoderSettings = encoderStep(plan.profile, initialEncoderStep);
    this.slate = new HoldingSlate(logger);
    this.gst = new GstPipeline(
      `session-${sessionId.replace(/[^A-Za-z0-9_-]/g, '_')}`,
      { onError: (e) => this.onBusError(e), onWarning: (w) => this.onBusWarning(w) },
      dotDir,
    );
  }

  get currentState(): PipelineState {
    return this.state;
  }

  get version(): number {
    return this.planVersion;
  }

  async start(): Promise<void> {
    const { profile } = this.plan;
    this.sink = new FlvSink('outputs', this.outputPorts.horizontal);
    const video = buildProgramVideo(this.gst, profile, this.encoderSettings, this.sink, this.plan.preview);
    this.compositor = video.compositor;
    this.rate = video.rate;
    const mixer = buildProgramAudio(this.gst, profile);
    this.mixer = mixer;
    this.setInputLatency();
    this.pacer = new Pacer(this.gst.bin, this.compositor);
    this.recorder = new Recorder(this.gst.bin, this.logger, () => this.requestKeyframe());
    this.inputs = new InputSet(
      {
        gst: this.gst,
        compositor: this.compositor,
        mixer,
        fader: this.fader,
        logger: this.logger,
        inputFailed: (inputId, message) => this.events.inputFailed(inputId, message),
        keyframeWanted: (inputId) => this.events.keyframeWanted(inputId),
        released: () => this.collectSoon(),
      },
      this.jitterLatencyMs,
    );
    // The background, the encoders and the outputs play first; everything else joins the playing
    // pipeline exactly as it would later, so an input that cannot start (a missing file, a UDP
    // port already taken) is reported and left out instead of keeping the program from PLAYING.
    this.gst.play();
    this.transition('playing');
    this.pacer.start();
    if (this.plan.slate) this.slate.attach(this.gst, this.compositor, this.plan.slate.path, profile, profile);
    this.attachClock();
    this.attachLowerThird();
    await this.reconcile(this.plan);
    this.logger.info(
      {
        inputs: this.inputs.size,
        width: profile.width,
        height: profile.height,
        fps: profile.fps,
        planVersion: this.planVersion,
        activeSceneId: this.plan.activeSceneId,
      },
      'pipeline playing',
    );
  }

  /** Applies a whole plan at a newer version to the running pipeline (see the class comment). */
  async apply(plan: RenderPlan, version: number): Promise<void> {
    if (version <= this.planVersion && version !== 0) return;
    const sceneChanged = plan.activeSceneId !== this.plan.activeSceneId;
    this.planVersion = version;
    await this.reconcile(plan);
    if (sceneChanged) this.inputs.restartShown(plan);
  }

  /**
   * The plan of the version applied last, planned again because who is in the session changed
   * (issue 51): placeholders of people away come off, following layouts re-flow. Pad properties only.
   */
  async replan(plan: RenderPlan): Promise<void> {
    await this.reconcile(plan);
  }

  /** Adds, removes or replaces destinations (attaching or detaching the vertical canvas they need); the others are not touched. */
  async setOutputs(outputs: readonly PlanOutput[]): Promise<void> {
    await this.reconcile({ ...this.plan, outputs: [...outputs] });
  }

  /**
   * Makes the running pipeline what `next` describes, in an order that never leaves anything
   * without what it needs: the vertical canvas is attached before the inputs (which then get their
   * vertical branch as they join) and its destinations; inputs that leave go before new ones join;
   * the vertical canvas is detached only after its last destination went.
   */
  private async reconcile(next: RenderPlan): Promise<void> {
    const began = performance.now();
    const wantsVertical = next.vertical !== undefined && outputsUseVertical(next.outputs);
    this.plan = next;
    if (wantsVertical && !this.vertical && next.vertical) await this.attachVertical(next.vertical);
    const { added, removed } = this.inputs.sync(this.plan);
    // The time is the JS thread's (which also writes every destination's connection): kept small.
    if (added + removed > 0)
      this.logger.info(
        { added, removed, inputs: this.inputs.size, planVersion: this.planVersion, ms: Math.round(performance.now() - began) },
        'inputs changed live',
      );
    this.inputs.applyPlan(this.plan);
    this.setCountdown(this.plan.countdown);
    this.drawChatOnScreen(this.plan.chatOnScreen ?? null);
    if (!wantsVertical && this.vertical) this.detachVertical();
    this.recorder.set(next.recording);
  }

  /**
   * A removed element is freed only when its JS wrapper is collected: node-gtk holds a reference
   * to every GStreamer object JS has seen, and V8 does not count the native memory behind it, so
   * without a collection each detached input kept its sockets (and their poll fds), its decoder's
   * buffers and its threads (measured: +2.7 MB, ~1 fd a cycle over 60 attach/detach cycles of a
   * camera and a web page, bench/live-edit-bench.ts). A full collection of this small heap takes a
   * few ms, at most once a second while inputs come and go.
   */
  private collectSoon(): void {
    if (this.collectTimer) return;
    this.collectTimer = setTimeout(() => {
      this.collectTimer = undefined;
      (globalThis as { gc?: () => void }).gc?.();
    }, 1000);
  }

  /** A destination of this canvas connected (in the worker): its encoder makes a keyframe now. */
  requestCanvasKeyframe(canvas: 'horizontal' | 'vertical'): void {
    if (canvas === 'vertical' && this.vertical) this.vertical.requestKeyframe();
    else this.requestKeyframe();
  }

  private async attachVertical(spec: NonNullable<RenderPlan['vertical']>): Promise<void> {
    try {
      const began = performance.now();
      const canvas = await VerticalCanvas.attach(
        this.gst,
        this.plan.profile,
        this.encoderSettings.preset,
        spec,
        new FlvSink('vertical-outputs', this.outputPorts.vertical),
      );
      const built = performance.now();
      this.vertical = canvas;
      this.setInputLatency();
      this.inputs.attachVertical(canvas.compositor, this.plan);
      this.clock?.attachVertical(canvas.compositor, canvas.size);
      this.lowerThird?.attachVertical(canvas.compositor, canvas.size);
      const ms = { canvasMs: Math.round(built - began), branchesMs: Math.round(performance.now() - built) };
      this.logger.info({ width: spec.width, height: spec.height, ...ms }, 'vertical canvas attached');
    } catch (err) {
      // Its destinations then get the horizontal picture rather than none.
      this.logger.error({ detail: err instanceof Error ? err.message : String(err) }, 'vertical canvas could not start');
    }
  }

  private detachVertical(): void {
    const canvas = this.vertical;
    if (!canvas) return;
    this.vertical = undefined;
    this.inputs.detachVertical();
    this.clock?.detachVertical();
    this.lowerThird?.detachVertical();
    canvas.detach();
    this.collectSoon();
    this.logger.info('vertical canvas detached');
  }

  /** The countdown plate; without it (rsvg missing, say) the countdown scene shows without its time. */
  private attachClock(): void {
    try {
      const clock = new CountdownClock(this.gst, this.plan.profile);
      clock.attach(this.compositor);
      this.clock = clock;
      this.layoutClock();
    } catch (err) {
      this.clock = undefined;
      this.logger.warn({ detail: err instanceof Error ? err.message : String(err) }, 'countdown plate left out');
    }
  }

  private setCountdown(countdown: RenderPlan['countdown']): void {
    if (!this.clock) return;
    if (this.clock.set(countdown))
      this.logger.info({ endsAt: countdown ? new Date(countdown.endsAt).toISOString() : null }, countdown ? 'countdown shown' : 'countdown hidden');
    this.layoutClock();
  }

  /** The chat lower third; without it (rsvg missing, say) a message on screen is not drawn, and never reported on air. */
  private attachLowerThird(): void {
    try {
      const card = new ChatLowerThird(this.gst, this.plan.profile);
      card.attach(this.compositor);
      this.lowerThird = card;
    } catch (err) {
      this.lowerThird = undefined;
      this.logger.warn({ detail: err instanceof Error ? err.message : String(err) }, 'chat lower third left out');
    }
  }

  /**
   * The chat message on screen changed (the worker's chatOnScreen command, issue 53 item 1): drawn
   * at once, outside any plan, and kept in the plan so a later plan version draws the same.
   */
  setChatOnScreen(message: ChatOnScreenDrawn | null): void {
    const { chatOnScreen: _previous, ...rest } = this.plan;
    this.plan = message ? { ...rest, chatOnScreen: message } : rest;
    this.drawChatOnScreen(message);
  }

  private drawChatOnScreen(message: ChatOnScreenDrawn | null): void {
    const changed = this.lowerThird?.set(message);
    if (!changed) return;
    this.logger.info({ messageId: message?.messageId ?? null }, message ? 'chat message drawn on screen' : 'chat message taken off screen');
    this.events.chatOnAir?.(changed.onAir);
  }

  private layoutClock(): void {
    if (this.clock) this.clock.place(this.clock.layout());
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
    this.inputs.setJitterLatency(ms);
    this.setInputLatency();
    this.gst.recalculateLatency();
  }

  /**
   * The compositors and the mixer wait for their inputs as if a live (network) input were always
   * there: an input joins a program that plays (issue 35), and a late joiner with a jitter buffer
   * would otherwise bring more latency than the aggregators were told of when they started, so its
   * frames would come late for every deadline. `min-upstream-latency` is the aggregators' own knob
   * for sources plugged in after they started; with it, adding or removing an input never re-times
   * the program.
   */
  private setInputLatency(): void {
    const ns = (this.jitterLatencyMs + INPUT_DECODE_MARGIN_MS) * 1_000_000;
    for (const aggregator of [this.compositor, this.mixer, this.vertical?.compositor])
      if (aggregator) setProperties(aggregator, { 'min-upstream-latency': ns });
  }

  /** Starts or stops recording (a tee branch of the encoded streams, see outputs/recording.ts). */
  setRecording(spec: RenderPlan['recording']): void {
    // Kept in the plan: a new encoder setting goes on recording into the same folder.
    const { recording: _previous, ...rest } = this.plan;
    this.plan = spec ? { ...rest, recording: spec } : rest;
    this.recorder.set(spec);
  }

  /** Ends the recording cleanly (every part's last fragment written), before a stop. */
  async finishRecording(): Promise<void> {
    await this.recorder?.finish();
  }

  /** Once a second: the figures sent to the worker (which adds its destinations' own). */
  tick(now = Date.now()): SessionStats {
    this.inputs.checkFeeds(this.plan);
    this.slate.check(now, this.plan, this.inputs.values(), this.plan.profile);
    this.checkPace();
    const frames = numberProperty(this.rate, 'out');
    const elapsed = (now - this.lastFramesAt) / 1000;
    if (elapsed > 0.2) {
      this.fps = Math.max(0, (frames - this.lastFrames) / elapsed);
      this.lastFrames = frames;
      this.lastFramesAt = now;
    }
    const slateSince = this.slate.since;
    const recordingPath = this.recorder.path;
    return {
      sessionId: this.sessionId,
      at: new Date(now).toISOString(),
      state: this.state,
      fps: Math.round(this.fps * 10) / 10,
      framesOut: frames,
      // A frame the compositor skipped to stay on the clock (pacer.ts) goes out as a duplicate.
      droppedFrames: numberProperty(this.rate, 'drop') + numberProperty(this.rate, 'duplicate'),
      bitrateKbps: 0,
      planVersion: this.planVersion,
      outputs: [],
      encoder: this.encoderNow(),
      slateSince: slateSince === undefined ? null : new Date(slateSince).toISOString(),
      ...(recordingPath ? { recordingPath } : {}),
    };
  }

  /**
   * Operators see when the program runs behind real time (its output delayed): the pacer
   * (pacer.ts) keeps it within a few hundred ms, so this names a machine that cannot keep up.
   */
  private checkPace(): void {
    const behindMs = this.pacer.behindMs;
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
   * Moves the live encoder to `step` of its ladder (a faster preset; the size stays). A preset is
   * only read when x264 opens, so the encoder is re-opened in place: the valve before it drops
   * frames while it goes to READY (which waits for the frame it may be encoding) and back to
   * PLAYING; when the valve opens it repeats the stream's caps and segment, x264 opens with the new
   * preset and starts with a keyframe, and h264parse and flvmux carry the new sequence header to
   * every output, which stay connected. Every preset writes the same parameter sets (build/video.ts),
   * so the recording's part goes on. Measured: the valve is closed for about 2 ms (under one frame at 30 fps).
   */
  setEncoderStep(step: number): EncoderSettings {
    const next = encoderStep(this.plan.profile, step);
    const current = this.encoderSettings;
    const encoder = this.gst.bin.getByName('video-encoder');
    const valve = this.gst.bin.getByName('video-encoder-valve');
    if (!encoder || !valve || this.state !== 'playing') return current;
    if (next.preset !== current.preset) {
      setProperties(valve, { drop: true });
      encoder.setState(loadGst().State.READY);
      setProperties(encoder, { 'speed-preset': next.preset });
      encoder.syncStateWithParent();
      setProperties(valve, { drop: false });
    }
    this.encoderSettings = next;
    this.logger.info({ step: next.step, preset: next.preset }, 'encoder step changed');
    return next;
  }

  /** The encoder's settings as the encoder has them (its preset, the size of the frames it takes). */
  private encoderNow(): EncoderSettings {
    const encoder = this.gst.bin.getByName('video-encoder');
    const caps = encoder?.getStaticPad('sink')?.getCurrentCaps();
    const preset = X264_PRESETS[Number(encoder?.speedPreset)] ?? this.encoderSettings.preset;
    return {
      ...this.encoderSettings,
      preset,
      width: structureNumber(caps, 'width') || this.encoderSettings.width,
      height: structureNumber(caps, 'height') || this.encoderSettings.height,
    };
  }

  stop(): void {
    if (this.state === 'stopped' || this.state === 'failed') return;
    this.transition('stopping');
    if (this.collectTimer) clearTimeout(this.collectTimer);
    this.fader.stop();
    this.clock?.stop();
    this.pacer?.stop();
    this.vertical?.pacer.stop();
    this.inputs?.stop();
    this.gst.stop();
    this.transition('stopped');
  }

  async dumpDot(reason: string): Promise<string | undefined> {
    return this.gst.dumpDot(reason);
  }

  private onBusError(raw: BusError): void {
    const keys = this.outputKeys();
    const error: BusError = { ...raw, message: scrubKeys(raw.message, keys), debug: scrubKeys(raw.debug, keys) };
    const fault = faultOf(error, this.inputs);
    switch (fault.of) {
      case 'slate':
        // The slate's picture failed: the program goes on without a slate rather than stopping.
        this.logger.warn({ detail: error.message }, 'holding slate failed');
        this.slate.failed();
        return;
      case 'countdown':
        // The countdown's plate failed: the countdown scene goes on without its time drawn.
        this.logger.warn({ detail: error.message }, 'countdown plate failed');
        this.clock?.hide();
        this.clock = undefined;
        return;
      case 'lowerthird':
        // The chat card failed: the program goes on; a message shown from now on is not reported on air.
        this.logger.warn({ detail: error.message }, 'chat lower third failed');
        this.lowerThird?.hide();
        this.lowerThird = undefined;
        this.events.chatOnAir?.(null);
        return;
      case 'input':
        if (fault.inputId !== undefined) {
          this.logger.warn({ inputId: fault.inputId, detail: error.message }, 'input failed');
          this.events.inputFailed(fault.inputId, error.message);
        } else {
          this.logger.debug({ element: error.source[0], detail: error.message }, 'error of an input already left out');
        }
        return;
      case 'program':
        this.logger.error({ element: error.source[0], detail: error.message, debug: error.debug }, 'pipeline error');
        void this.gst.dumpDot('error').then((file) => file && this.logger.error({ file }, 'pipeline graph dumped'));
        this.transition('failed');
        this.events.fatal('PIPELINE_FAILED', error.message);
    }
  }

  private onBusWarning(warning: BusError): void {
    this.logger.warn({ element: warning.source[0], detail: scrubKeys(warning.message, this.outputKeys()) }, 'pipeline warning');
    // A decoder that could not decode a frame (damaged data it was given): its feed shows its last
    // good picture until a keyframe comes, so its sender is asked for one now.
    if (!warning.source.some((name) => name.endsWith('-dec'))) return;
    const input = this.inputs.inputOfElements(warning.source);
    if (input.inputId !== undefined) this.events.keyframeWanted(input.inputId);
  }

  /** Stream keys of the destinations, to scrub from any text GStreamer produced. */
  private outputKeys(): string[] {
    return this.plan.outputs.map((o) => o.key).filter((k): k is string => typeof k === 'string' && k.length >= 4);
  }

  private transition(next: PipelineState): void {
    if (!pipelineTransitions[this.state].includes(next)) throw new Error(`pipeline ${this.state} → ${next} is not allowed`);
    this.state = next;
  }
}
