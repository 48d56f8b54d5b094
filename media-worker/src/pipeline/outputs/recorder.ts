import type { RenderPlan } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { structureNumber } from '../../gst/elements.ts';
import type { GstBin } from '../../gst/gst.ts';
import { Recording } from './recording.ts';

/**
 * The session's recording (plan.recording): one part per pipeline process, started and stopped
 * by the api's command, written from the encoded streams' tees. A part that stops writes out its
 * last fragment in the background; `finish` waits for every one before the process stops.
 */
/** How long the next part waits for the encoded stream's new size before it starts anyway. */
const NEXT_PART_WAIT_MS = 5000;

export class Recorder {
  private recording: Recording | undefined;
  private readonly finishing = new Set<Promise<void>>();
  /** The next part, waiting for the encoded stream to reach its size (nextPartAt). */
  private next: { spec: RenderPlan['recording']; timer: NodeJS.Timeout } | undefined;

  constructor(
    private readonly pipeline: GstBin,
    private readonly logger: Logger,
    private readonly requestKeyframe: () => void,
  ) {}

  get path(): string | undefined {
    return this.recording?.path;
  }

  /** Recording now, or between two parts (nextPartAt). */
  get active(): boolean {
    return this.recording !== undefined || this.next !== undefined;
  }

  set(spec: RenderPlan['recording']): void {
    if (this.next) {
      this.next.spec = spec;
      return;
    }
    if (spec && !this.recording) this.start(spec.dir);
    else if (!spec && this.recording) this.stop();
  }

  private start(dir: string): void {
    const videoTee = this.pipeline.getByName('video-encoded');
    const audioTee = this.pipeline.getByName('audio-encoded');
    if (!videoTee || !audioTee) return;
    try {
      const recording = new Recording(this.pipeline, videoTee, audioTee, dir, this.logger, this.requestKeyframe);
      recording.start();
      this.recording = recording;
    } catch (err) {
      // The broadcast goes on unrecorded rather than not at all.
      this.logger.error({ detail: err instanceof Error ? err.message : String(err) }, 'recording could not start');
    }
  }

  /** Ends the current part; its last fragment is written out in the background. */
  stop(): void {
    const recording = this.recording;
    this.recording = undefined;
    if (!recording) return;
    const finishing: Promise<void> = recording.stop().finally(() => this.finishing.delete(finishing));
    this.finishing.add(finishing);
  }

  /**
   * Ends the current part now and starts the next once the encoded stream has `size` (the encoder
   * stepped to a new size): an MP4 track is made for the caps it gets first, so a part started
   * before the first frame of the new size reached the tee would take the old caps and then refuse
   * the new ones (seen: a second part that did not decode). Looked at every 20 ms from this thread.
   */
  nextPartAt(size: { width: number; height: number }, spec: RenderPlan['recording']): void {
    this.stop();
    this.cancelNext();
    const since = Date.now();
    const next = {
      spec,
      timer: setInterval(() => {
        if (!this.encodedAt(size) && Date.now() - since < NEXT_PART_WAIT_MS) return;
        this.cancelNext();
        this.set(next.spec);
      }, 20),
    };
    this.next = next;
  }

  private cancelNext(): void {
    if (this.next) clearInterval(this.next.timer);
    this.next = undefined;
  }

  private encodedAt(size: { width: number; height: number }): boolean {
    const caps = this.pipeline.getByName('video-encoded')?.getStaticPad('sink')?.getCurrentCaps();
    return structureNumber(caps, 'width') === size.width && structureNumber(caps, 'height') === size.height;
  }

  /** Ends the recording cleanly (every part's last fragment written), before a stop. */
  async finish(): Promise<void> {
    this.cancelNext();
    this.stop();
    await Promise.all([...this.finishing]);
  }
}
