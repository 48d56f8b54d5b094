import type { Logger } from '@onair/runtime';
import type { GstElement } from '../../gst/gst.ts';
import { loadGst } from '../../gst/gst.ts';
import { timeOf } from '../../gst/elements.ts';
import { GstPipeline } from '../../gst/pipeline.ts';
import { MIXER_AUDIO_CAPS } from './source.ts';

/** How often the player looks at its position (a loop starts over within this of the end). */
const POSITION_POLL_MS = 100;
/** Within this of its end a file counts as ended (the last frame's duration, and a margin). */
const END_MARGIN_NS = 80_000_000;

export interface FilePlayerEvents {
  /** The file could not be played (damaged, unexpected codec); the player stopped, the program goes on. */
  failed(message: string): void;
}

/**
 * Plays a video file in a pipeline of its own and hands its pictures and sound to the program
 * through intervideosink/interaudiosink: the program's inputs are the live intervideosrc and
 * interaudiosrc on the same channel, so nothing in the file (its timestamps, its end, a seek to loop
 * or restart, a decoding error) ever reaches the program's compositor or mixer. The demuxer's pads
 * appear at run time: the description is linked by GStreamer's own parser (delayed links in C),
 * with no callback from a streaming thread into JS.
 */
export class FilePlayer {
  private pipeline: GstPipeline | undefined;
  private poll: NodeJS.Timeout | undefined;
  private ended = false;

  constructor(
    private readonly name: string,
    private readonly path: string,
    /** The intervideo/interaudio channel the program's input reads. */
    readonly channel: string,
    private readonly loop: boolean,
    private readonly fps: number,
    private readonly events: FilePlayerEvents,
    private readonly logger: Logger,
  ) {}

  start(): void {
    const gst = loadGst();
    // Both sinks async=false: a file without sound never feeds the audio branch, and the player
    // must play without waiting for that branch to preroll. sync=true paces the file in real time.
    const description = [
      `filesrc location="${this.path}" ! decodebin name=dec`,
      `dec. ! video/x-raw ! queue max-size-buffers=4 ! videoconvert ! videoscale ! videorate ! video/x-raw,format=I420,framerate=${this.fps}/1,pixel-aspect-ratio=1/1 ! intervideosink channel=${this.channel} sync=true async=false`,
      `dec. ! audio/x-raw ! queue ! audioconvert ! audioresample ! ${MIXER_AUDIO_CAPS} ! interaudiosink channel=${this.channel} sync=true async=false`,
    ].join(' ');
    const pipeline = new GstPipeline(`${this.name}-player`, {
      onError: (error) => this.fail(error.message),
      onWarning: (warning) => this.logger.debug({ player: this.name, detail: warning.message }, 'video file warning'),
      onEos: () => this.onEnd(),
    });
    try {
      pipeline.add(gst.parseBinFromDescription(description, false));
      pipeline.play();
    } catch (err) {
      pipeline.stop();
      throw err;
    }
    this.pipeline = pipeline;
    this.poll = setInterval(() => this.checkEnd(), POSITION_POLL_MS);
  }

  /** From the start again (a scene that shows it became active, or the end of a loop). */
  restart(): void {
    const pipeline = this.pipeline;
    if (!pipeline) return;
    const gst = loadGst();
    this.ended = false;
    // Paused around the flushing seek, so that playing again starts the running time afresh. (A
    // seek while playing resets the running time to 0 while the clock goes on; with sinks that do
    // not preroll (async=false) nothing re-bases it, so every frame after the first loop was
    // "late" by the time played so far: the decoder dropped each one on QoS and spun through the
    // file at full speed, a frozen picture for well over a core.)
    pipeline.bin.setState(gst.State.PAUSED);
    if (!(pipeline.bin as GstElement).seekSimple(gst.Format.TIME, gst.SeekFlags.FLUSH | gst.SeekFlags.KEY_UNIT, 0)) {
      this.logger.debug({ player: this.name }, 'video file restart not taken');
    }
    pipeline.bin.setState(gst.State.PLAYING);
  }

  stop(): void {
    if (this.poll) clearInterval(this.poll);
    this.poll = undefined;
    this.pipeline?.stop();
    this.pipeline = undefined;
  }

  /**
   * EOS reaches the bus only when every sink has it, and the sound sink of a file without sound
   * never does: the position tells the end in every case.
   */
  private checkEnd(): void {
    const bin = this.pipeline?.bin;
    if (!bin || this.ended) return;
    const gst = loadGst();
    const duration = timeOf(bin.queryDuration(gst.Format.TIME));
    const position = timeOf(bin.queryPosition(gst.Format.TIME));
    if (duration !== undefined && position !== undefined && duration > 0 && position >= duration - END_MARGIN_NS) this.onEnd();
  }

  private onEnd(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.loop) this.restart();
  }

  private fail(message: string): void {
    this.logger.warn({ player: this.name, detail: message }, 'video file failed');
    this.stop();
    this.events.failed(message);
  }
}
