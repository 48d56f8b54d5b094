import type { PlanInput, RenderPlan } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { linkBranch, linkPads, makeElement, requestPad, staticPad, structureNumber } from '../../gst/elements.ts';
import { loadGst, type GstBin, type GstElement, type GstPad } from '../../gst/gst.ts';
import type { GstPipeline } from '../../gst/pipeline.ts';
import type { AudioFader } from '../audio-fader.ts';
import { AAC_PRIMING_NS } from '../build/audio.ts';
import { audioTargets, videoLayout, type AudioPadTarget } from '../layout.ts';
import { buildSource, FilePlayer } from '../sources/index.ts';
import { VerticalCanvas } from '../vertical-canvas.ts';
import { FirstData } from './first-data.ts';
import { PictureLink } from './picture-link.ts';

/** One video feed of an input on the compositors. */
export interface AttachedFeed {
  link: PictureLink;
  /** For a network feed: its jitter buffer, whose pushed-packet count tells whether it flows. */
  jitter?: GstElement;
  /** For a network feed: the element whose last message changes with every decoded picture, and that message at the last look. */
  pictures?: GstElement;
  picture?: string;
  pushed: number;
  /** Packets the jitter buffer gave up on (lost, or too late), at the last look. */
  missed: number;
  /**
   * Looks in a row that found no packet moved: 0 when some moved since the last look (a feed
   * without a jitter buffer always), Infinity before its first packet. See moved() and flowing().
   */
  quietLooks: number;
}

/**
 * How many looks (a second apart) in a row must find a feed silent before its layer shows the
 * placeholder: 2 to 3 s after its last packet. At one look (1 to 2 s), a sender that paused for a
 * second, as a browser whose machine is busy does, flashed 'Camera Offline' to viewers: in the e2e,
 * adding a web page put the guest's and the screen's placeholders on air for 2.1 s.
 */
export const QUIET_LOOKS_TO_STOP = 2;

export interface AttachedInput {
  id: string;
  /** Its element names start with `${name}-` (bus errors are told by them). */
  name: string;
  /** The plan's description it was built from: another description is another input. */
  spec: string;
  feeds: AttachedFeed[];
  /** The offline picture, shown while no feed flows. */
  placeholder?: PictureLink;
  /**
   * Its sound: on the mixer through a tee, the mixer's pad requested at once for a local source,
   * and with its first sound for a network one (FirstData: a pad without data holds the mixer back).
   */
  audio?: { bin: GstBin; tee: GstElement; teePad?: GstPad; pad?: GstPad; jitter?: GstElement; firstData?: FirstData };
  /** Index of the feed drawn in the layer, or -1 for the placeholder (or nothing). */
  shown: number;
  /** A network feed of this input has flowed at least once since it was attached. */
  everFlowed: boolean;
  /** A video file, playing in a pipeline of its own into this input (sources/file-player.ts). */
  player?: { player: FilePlayer; restartOnShow: boolean };
}

/**
 * An rtpjitterbuffer taken out of a pipeline after packets reached it but before it pushed its
 * first one is never freed: something keeps a reference to it, so its bin, its bus's socket pair
 * and its decoder's buffers stay for the life of the process (measured here with a 200 ms latency:
 * 2 sockets and about 2.7 MB a cycle when a camera was added and removed within 250 ms of each
 * other; nothing when removed 350 ms or more after). A network input removed before each of its
 * jitter buffers pushed is made invisible and silent at once, and released once they have pushed
 * (looked at every SETTLE_POLL_MS), or after SETTLE_GIVE_UP_MS (one that never gets a packet
 * never pushes, and does not leak either).
 */
const SETTLE_POLL_MS = 100;
const SETTLE_GIVE_UP_MS = 3000;

/**
 * Between the once-a-second looks, network feeds are looked at this often for lost packets and for
 * packets that resume after a pause: either leaves the feed on its last good picture until a
 * keyframe comes (sources/rtp.ts), so its sender is asked at once. The forwarder asks too when it
 * sees the gap, but not for packets lost after it (this process's socket overflowing while the
 * machine is busy elsewhere, or a pipeline that was not scheduled for a while).
 */
export const QUICK_LOOK_MS = 200;
/** A feed whose packets had not moved for this many quick looks, and move again, has resumed. */
const QUICK_LOOKS_TO_RESUME = 3;

/**
 * How much earlier than its picture a live input's sound is stamped, so that the two come out of
 * the program together (issue 53 item 4; measured with a flash and a beep sent together, read from
 * the RTMP output: the sound was 41 ms late through the WebRTC path and 30 ms through the RTMP
 * ingest, stddev 0.1 ms within a run):
 * - the AAC encoder's priming (AAC_PRIMING_NS, 21.3 ms): a player plays every sample that much
 *   after its timestamp;
 * - half a program frame: the compositor draws a picture on the output frame during which it
 *   starts, so each picture goes out 0 to 1 frame before its time, on a phase that depends on when
 *   the feed's frames arrive (the two paths above: 19.7 and 8.7 ms beyond the priming). Half a frame
 *   puts the sound in the middle of that frame: within half a frame of its picture on any phase.
 * Live inputs only: their jitter-buffer offset (retime) is larger than this, so the sound's offset
 * stays positive (a negative one moves a stream's segment, see AAC_PRIMING_NS), and the mixer still
 * has its margin (INPUT_DECODE_MARGIN_MS beyond the jitter buffer, against an Opus decode of well
 * under a millisecond).
 */
export function audioLeadNs(fps: number): number {
  return AAC_PRIMING_NS + Math.round(1e9 / fps / 2);
}

export interface InputSetDeps {
  gst: GstPipeline;
  compositor: GstElement;
  mixer: GstElement;
  fader: AudioFader;
  logger: Logger;
  inputFailed(inputId: string, message: string): void;
  keyframeWanted(inputId: string): void;
  /** Elements left the pipeline (their wrappers can be collected). */
  released(): void;
}

/**
 * The inputs of a program, each attached to the running pipeline when the plan names it and
 * detached when the plan drops it or describes it otherwise (issue 35): nothing else in the
 * pipeline is touched either way, so what viewers receive never stops. An input that cannot start
 * (a missing file, a UDP port taken) is reported and left out. Element names carry a number that is
 * never used twice in a pipeline's life, so a bus error is traced to its input even after
 * thousands of inputs came and went.
 */
export class InputSet {
  private readonly inputs = new Map<string, AttachedInput>();
  /** Input ids by the number in their element names, for the inputs attached now. */
  private readonly byNumber = new Map<number, string>();
  private nextNumber = 0;
  private jitterLatencyMs: number;
  /** The plan last applied: a network input's sound joins the mixer at its level then. */
  private plan: RenderPlan | undefined;
  /** The vertical compositor while the vertical canvas is attached. */
  private vertical: GstElement | undefined;
  /** Inputs already out of the plan, invisible and silent, released when they have settled. */
  private readonly leaving = new Map<AttachedInput, NodeJS.Timeout>();
  /** Each network feed at the last quick look: packets pushed and missed, and looks in a row without a push. */
  private readonly quick = new WeakMap<AttachedFeed, { pushed: number; missed: number; quiet: number }>();
  private readonly quickTimer: NodeJS.Timeout;

  constructor(
    private readonly deps: InputSetDeps,
    jitterLatencyMs: number,
  ) {
    this.jitterLatencyMs = jitterLatencyMs;
    this.quickTimer = setInterval(() => this.quickLook(), QUICK_LOOK_MS);
    this.quickTimer.unref();
  }

  get size(): number {
    return this.inputs.size;
  }

  values(): IterableIterator<AttachedInput> {
    return this.inputs.values();
  }

  /** The input whose elements posted a bus message (their names start `inN-`), if one is attached now. */
  inputOfElements(names: readonly string[]): { inputId: string | undefined; matched: boolean } {
    const n = names.map((name) => /^in(\d+)-/.exec(name)?.[1]).find((i) => i !== undefined);
    if (n === undefined) return { inputId: undefined, matched: false };
    return { inputId: this.byNumber.get(Number(n)), matched: true };
  }

  /**
   * Brings the attached inputs in line with the plan: inputs it no longer names (or names with
   * another description) leave first, then new ones join, in the plan's order. Returns how many of
   * each, for the log.
   */
  sync(plan: RenderPlan): { added: number; removed: number } {
    this.plan = plan;
    const wanted = new Map(plan.inputs.map((input) => [input.id, input]));
    let removed = 0;
    for (const [id, attached] of this.inputs) {
      const next = wanted.get(id);
      if (next && JSON.stringify(next) === attached.spec) continue;
      this.detach(id);
      removed++;
    }
    let added = 0;
    for (const input of plan.inputs) {
      if (this.inputs.has(input.id)) continue;
      if (this.attach(input, plan)) added++;
    }
    return { added, removed };
  }

  /** Attaches one input; false if it could not start (reported, and nothing of it is left behind). */
  attach(input: PlanInput, plan: RenderPlan): boolean {
    const number = this.nextNumber++;
    const name = `in${number}`;
    const attached: AttachedInput = { id: input.id, name, spec: JSON.stringify(input), feeds: [], shown: -1, everFlowed: false };
    const { gst, compositor } = this.deps;
    const links: PictureLink[] = [];
    try {
      const bins = buildSource(input, plan.profile, name);
      const link = (bin: GstBin, part: string, network = false): PictureLink => {
        const picture = new PictureLink(gst, bin, `${name}-${part}`, compositor, { joinOnFirstFrame: network });
        links.push(picture);
        if (this.vertical) picture.attachVertical(this.vertical);
        return picture;
      };
      bins.video.forEach((feed, f) => {
        const jitter = feed.jitter ? (feed.bin.getByName(feed.jitter) ?? undefined) : undefined;
        attached.feeds.push({
          link: link(feed.bin, `feed${f}`, jitter !== undefined),
          jitter,
          pictures: feed.pictures ? (feed.bin.getByName(feed.pictures) ?? undefined) : undefined,
          pushed: 0,
          missed: 0,
          quietLooks: jitter ? Number.POSITIVE_INFINITY : 0,
        });
      });
      if (bins.placeholder) attached.placeholder = link(bins.placeholder, 'placeholder');
      attached.shown = attached.feeds.findIndex(flowing);
      if (bins.audio) {
        const tee = makeElement('tee', `${name}-atee`, { 'allow-not-linked': true });
        gst.add(bins.audio);
        gst.add(tee);
        linkPads(staticPad(bins.audio, 'src'), staticPad(tee, 'sink'));
        const jitter = bins.audioJitter ? (bins.audio.getByName(bins.audioJitter) ?? undefined) : undefined;
        const audio: NonNullable<AttachedInput['audio']> = { bin: bins.audio, tee, jitter };
        attached.audio = audio;
        const fadeIn = input.kind === 'rtp' && input.audio?.fadeIn === true;
        if (!jitter) this.joinMixer(input.id, audio, audioTargets(plan).get(input.id)!, fadeIn);
        else {
          const firstData = new FirstData(gst, tee, `${name}-afirst`);
          audio.firstData = firstData;
          firstData.start(() => {
            audio.firstData = undefined;
            if (this.inputs.get(input.id)?.audio === audio)
              this.joinMixer(input.id, audio, audioTargets(this.plan ?? plan).get(input.id) ?? { volume: 0, muted: true, audible: false }, fadeIn);
          });
        }
      }
      for (const jitter of this.jitterBuffers(attached)) jitter.latency = this.jitterLatencyMs;
      this.retime(attached);
      this.layout(attached, plan);
      for (const picture of links) picture.start();
      if (attached.audio && (!attached.audio.tee.syncStateWithParent() || !attached.audio.bin.syncStateWithParent()))
        throw new Error(`${input.kind} input's sound could not start`);
      this.inputs.set(input.id, attached);
      this.byNumber.set(number, input.id);
      if (bins.filePlayer) attached.player = this.startPlayer(input.id, name, bins.filePlayer, plan.profile.fps);
      return true;
    } catch (err) {
      for (const picture of links) picture.detach();
      if (attached.audio) this.detachAudio(attached);
      const message = err instanceof Error ? err.message : String(err);
      this.deps.logger.warn({ inputId: input.id, detail: message }, 'input left out');
      this.deps.inputFailed(input.id, message);
      return false;
    }
  }

  /** Takes an input out of the running pipeline; everything else goes on as it was. */
  detach(inputId: string): void {
    const attached = this.inputs.get(inputId);
    if (!attached) return;
    this.inputs.delete(inputId);
    this.byNumber.delete(Number(attached.name.slice(2)));
    if (this.settled(attached)) {
      this.release(attached);
      return;
    }
    // Out of the picture and the mix now; out of the pipeline once settled (SETTLE_POLL_MS).
    for (const picture of this.pictures(attached)) {
      picture.place({ alpha: 0 });
      picture.placeVertical({ alpha: 0 });
    }
    this.deps.fader.remove(attached.id);
    if (attached.audio?.pad) Object.assign(attached.audio.pad, { volume: 0, mute: true });
    const leftAt = performance.now();
    const timer = setInterval(() => {
      if (!this.settled(attached) && performance.now() - leftAt < SETTLE_GIVE_UP_MS) return;
      clearInterval(timer);
      this.leaving.delete(attached);
      this.release(attached);
    }, SETTLE_POLL_MS);
    this.leaving.set(attached, timer);
  }

  /** Whether every jitter buffer of the input has pushed a packet (see SETTLE_POLL_MS). */
  private settled(attached: AttachedInput): boolean {
    return this.jitterBuffers(attached).every((jitter) => structureNumber(jitter.stats as { toString(): string } | undefined, 'num-pushed') > 0);
  }

  private release(attached: AttachedInput): void {
    attached.player?.player.stop();
    for (const feed of attached.feeds) feed.link.detach();
    attached.placeholder?.detach();
    if (attached.audio) this.detachAudio(attached);
    this.deps.released();
  }

  private detachAudio(attached: AttachedInput): void {
    const audio = attached.audio;
    if (!audio) return;
    attached.audio = undefined;
    this.deps.fader.remove(attached.id);
    audio.firstData?.remove();
    if (audio.pad && audio.teePad) {
      audio.teePad.unlink(audio.pad);
      this.deps.mixer.releaseRequestPad(audio.pad);
      audio.tee.releaseRequestPad(audio.teePad);
    }
    const { State } = loadGst();
    audio.bin.setState(State.NULL);
    audio.tee.setState(State.NULL);
    this.deps.gst.remove(audio.bin);
    this.deps.gst.remove(audio.tee);
  }

  /** The input's sound on the mixer, at its level (fading in if asked). */
  private joinMixer(inputId: string, audio: NonNullable<AttachedInput['audio']>, target: AudioPadTarget, fadeIn: boolean): void {
    const pad = requestPad(this.deps.mixer, 'sink_%u');
    const teePad = requestPad(audio.tee, 'src_%u');
    linkBranch(teePad, pad);
    audio.pad = pad;
    audio.teePad = teePad;
    this.deps.fader.add(inputId, pad, target, { fadeIn });
  }

  /** Every input gets a branch to the vertical compositor (the vertical canvas was attached). */
  attachVertical(compositor: GstElement, plan: RenderPlan): void {
    this.vertical = compositor;
    for (const input of this.inputs.values()) {
      for (const picture of this.pictures(input)) picture.attachVertical(compositor);
      this.layoutVertical(input, plan);
    }
  }

  detachVertical(): void {
    this.vertical = undefined;
    for (const input of [...this.inputs.values(), ...this.leaving.keys()]) for (const picture of this.pictures(input)) picture.detachVertical();
  }

  /** Every input where the active scene draws it, and its sound at the scene's level. */
  applyPlan(plan: RenderPlan): void {
    this.plan = plan;
    const audio = audioTargets(plan);
    for (const input of this.inputs.values()) {
      this.layout(input, plan);
      const target = audio.get(input.id);
      if (input.audio && target) this.deps.fader.set(input.id, target);
    }
  }

  /** Video files of the scene just shown that start over when shown. */
  restartShown(plan: RenderPlan): void {
    const shown = new Set(
      plan.scenes
        .find((s) => s.id === plan.activeSceneId)
        ?.placements.filter((p) => p.visible)
        .map((p) => p.inputId),
    );
    for (const input of this.inputs.values()) if (input.player?.restartOnShow && shown.has(input.id)) input.player.player.restart();
  }

  setJitterLatency(ms: number): boolean {
    this.jitterLatencyMs = ms;
    let any = false;
    for (const input of this.inputs.values()) {
      for (const jitter of this.jitterBuffers(input)) {
        jitter.latency = ms;
        any = true;
      }
      this.retime(input);
    }
    return any;
  }

  /**
   * A network feed's frames and sound come out of its jitter buffer one latency after the time
   * they are stamped with (its arrival): left so, they are that late at the compositor and the
   * mixer, which then wait for them from the moment the input joins, and the whole program
   * reaches viewers that much later, at once: a 0.2 s hole in the stream at every join (issue 35).
   * Moved by the same latency, they arrive when the program needs them and nothing waits; the
   * picture and the sound of one input move together, so they stay in step, the sound stamped
   * `audioLeadNs` earlier than its picture (see there: what the encoder and the compositor do to them).
   */
  private retime(input: AttachedInput): void {
    const offsetNs = this.jitterLatencyMs * 1_000_000;
    for (const feed of input.feeds) if (feed.jitter) staticPad(feed.link.source, 'src').setOffset(offsetNs);
    if (input.audio?.jitter) staticPad(input.audio.bin, 'src').setOffset(offsetNs - audioLeadNs(this.plan?.profile.fps ?? 30));
  }

  /**
   * A WebRTC track that stops leaves its last frame in the compositor, frozen; one that changes
   * codec arrives on another feed. Once a second, every network feed whose jitter buffer pushed
   * packets since the last look has moved (and one that also lost packets asks for a keyframe),
   * and one that moved within the last QUIET_LOOKS_TO_STOP looks still flows. The layer shows a
   * feed that moved (the one shown first: a codec switch overlaps for a moment), else the shown
   * feed while it still flows (frozen through a hiccup), else the placeholder ('Camera Offline', …).
   * Only pad properties change: nothing is relinked or restarted either way.
   */
  checkFeeds(plan: RenderPlan): void {
    for (const input of this.inputs.values()) {
      /** Feeds that decoded a picture since the last look. */
      const fresh = new Set<AttachedFeed>();
      for (const feed of input.feeds) {
        if (!feed.jitter) continue;
        const picture = String(feed.pictures?.lastMessage ?? '');
        if (picture !== feed.picture) fresh.add(feed);
        feed.picture = picture;
        const stats = feed.jitter.stats as { toString(): string } | undefined;
        const pushed = structureNumber(stats, 'num-pushed');
        const missed = structureNumber(stats, 'num-lost') + structureNumber(stats, 'num-late');
        const was = flowing(feed);
        lookAtFeed(feed, pushed);
        // Its first packets: a keyframe asked for before this input's port listened (a track routed
        // to it as it joined) never reached its decoder, and browsers send none by themselves.
        const now = flowing(feed);
        if (now && !input.everFlowed) this.deps.keyframeWanted(input.id);
        if (now) input.everFlowed = true;
        // Packets flow and no picture came of them yet: the keyframe asked for was lost on the way
        // (or never sent), and the layer shows the placeholder until one comes. Asked again.
        if (now && input.everFlowed && !feed.link.joined) this.deps.keyframeWanted(input.id);
        // Operators read from this when a picture froze or a source went to its placeholder.
        if (was !== now && input.everFlowed)
          this.deps.logger.info({ inputId: input.id, feed: input.feeds.indexOf(feed), pushed, missed }, now ? 'input feed flows' : 'input feed stopped');
        // Losses the sender's own loss detection cannot see (dropped here, after the network):
        // the feed holds its last good picture until the next keyframe (sources/rtp.ts).
        if (now && missed > feed.missed) this.deps.keyframeWanted(input.id);
        feed.missed = missed;
      }
      // Only a feed with a picture: a flowing feed not on the compositor yet (its first keyframe not
      // decoded) would show nothing there, a black hole where its placeholder was; one coming back
      // from its placeholder (or another codec's feed) only with a new picture, not the stale one
      // its pad kept from before it stopped.
      const showable = (f: AttachedFeed, i: number): boolean => f.link.joined && (i === input.shown || !f.pictures || fresh.has(f));
      const shown = feedToShow({ shown: input.shown, feeds: input.feeds.map((f, i) => (showable(f, i) ? f : NO_PICTURE)) });
      if (shown === input.shown) continue;
      input.shown = shown;
      this.layout(input, plan);
    }
  }

  /** See QUICK_LOOK_MS. */
  private quickLook(): void {
    for (const input of this.inputs.values()) {
      for (const feed of input.feeds) {
        if (!feed.jitter) continue;
        const stats = feed.jitter.stats as { toString(): string } | undefined;
        const pushed = structureNumber(stats, 'num-pushed');
        const missed = structureNumber(stats, 'num-lost') + structureNumber(stats, 'num-late');
        const last = this.quick.get(feed);
        this.quick.set(feed, { pushed, missed, quiet: last && pushed === last.pushed ? last.quiet + 1 : 0 });
        if (!last) continue;
        const resumed = pushed !== last.pushed && last.quiet >= QUICK_LOOKS_TO_RESUME;
        if (missed > last.missed || resumed) this.deps.keyframeWanted(input.id);
      }
    }
  }

  /** Stops every video file's player and every pending release (the program stops, and every element with it). */
  stop(): void {
    clearInterval(this.quickTimer);
    for (const timer of this.leaving.values()) clearInterval(timer);
    this.leaving.clear();
    for (const input of this.inputs.values()) input.player?.player.stop();
  }

  /** Draws the input's shown feed (or its placeholder) where the active scene puts it; the rest stay transparent. */
  private layout(input: AttachedInput, plan: RenderPlan): void {
    const layout = videoLayout(plan).get(input.id);
    if (layout) {
      input.feeds.forEach((feed, i) => feed.link.place(i === input.shown ? layout : { ...layout, alpha: 0 }));
      input.placeholder?.place(showsPlaceholder(input, plan) ? layout : { ...layout, alpha: 0 });
    }
    this.layoutVertical(input, plan);
  }

  /** The same on the vertical compositor, at the vertical scene's place. */
  private layoutVertical(input: AttachedInput, plan: RenderPlan): void {
    const layout = this.vertical ? VerticalCanvas.layout(plan).get(input.id) : undefined;
    if (!layout) return;
    input.feeds.forEach((feed, i) => {
      feed.link.placeVertical(i === input.shown ? layout : { ...layout, alpha: 0 });
    });
    input.placeholder?.placeVertical(showsPlaceholder(input, plan) ? layout : { ...layout, alpha: 0 });
  }

  private pictures(input: AttachedInput): PictureLink[] {
    return [...input.feeds.map((f) => f.link), ...(input.placeholder ? [input.placeholder] : [])];
  }

  private jitterBuffers(input: AttachedInput): GstElement[] {
    return [...input.feeds.map((f) => f.jitter), input.audio?.jitter].filter((j): j is GstElement => j !== undefined);
  }

  /** A bad file fails its own pipeline only: the input is reported and shows black (or its last frame). */
  private startPlayer(inputId: string, name: string, file: NonNullable<ReturnType<typeof buildSource>['filePlayer']>, fps: number): AttachedInput['player'] {
    const player = new FilePlayer(
      `${this.deps.gst.name}-${name}`,
      file.path,
      file.channel,
      file.loop,
      fps,
      { failed: (message) => this.deps.inputFailed(inputId, message) },
      this.deps.logger,
    );
    try {
      player.start();
      return { player, restartOnShow: file.restartOnShow };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.deps.logger.warn({ inputId, detail: message }, 'video file left out');
      this.deps.inputFailed(inputId, message);
      return undefined;
    }
  }
}

/**
 * Whether the input's layer draws its placeholder: while no feed of it is shown, and only if its
 * person is in the session (issue 51, media-worker/README.md "An arriving feed is always seen"):
 * for someone who is not there it draws nothing, so what is under the layer shows.
 */
export function showsPlaceholder(input: Pick<AttachedInput, 'id' | 'shown'>, plan: Pick<RenderPlan, 'absentInputs'>): boolean {
  return input.shown === -1 && !plan.absentInputs.includes(input.id);
}

/** How feedToShow sees a feed that has no picture on the compositor yet. */
const NO_PICTURE = { quietLooks: Number.POSITIVE_INFINITY };

/** Packets moved since the last look. */
export const moved = (feed: Pick<AttachedFeed, 'quietLooks'>): boolean => feed.quietLooks === 0;

/** Moved within the last QUIET_LOOKS_TO_STOP looks: a sender's hiccup freezes its picture, it does not take it off. */
export const flowing = (feed: Pick<AttachedFeed, 'quietLooks'>): boolean => feed.quietLooks < QUIET_LOOKS_TO_STOP;

/** One look at a network feed whose jitter buffer has pushed `pushed` packets in all. */
export function lookAtFeed(feed: Pick<AttachedFeed, 'pushed' | 'quietLooks'>, pushed: number): void {
  feed.quietLooks = pushed !== feed.pushed ? 0 : feed.quietLooks + 1;
  feed.pushed = pushed;
}

/** The feed to draw: one that moved (the one shown first), else the shown one while it still flows, else none (-1: the placeholder). */
export function feedToShow(input: { feeds: readonly Pick<AttachedFeed, 'quietLooks'>[]; shown: number }): number {
  const current = input.feeds[input.shown];
  if (current && moved(current)) return input.shown;
  const moving = input.feeds.findIndex(moved);
  if (moving >= 0) return moving;
  return current && flowing(current) ? input.shown : input.feeds.findIndex(flowing);
}
