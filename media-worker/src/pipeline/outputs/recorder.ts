import type { RenderPlan } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import type { GstBin } from '../../gst/gst.ts';
import { Recording } from './recording.ts';

/**
 * The session's recording (plan.recording): one part per pipeline process, started and stopped
 * by the api's command, written from the encoded streams' tees. A part that stops writes out its
 * last fragment in the background; `finish` waits for every one before the process stops.
 */
export class Recorder {
  private recording: Recording | undefined;
  private readonly finishing = new Set<Promise<void>>();

  constructor(
    private readonly pipeline: GstBin,
    private readonly logger: Logger,
    private readonly requestKeyframe: () => void,
  ) {}

  get path(): string | undefined {
    return this.recording?.path;
  }

  set(spec: RenderPlan['recording']): void {
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

  /** Ends the recording cleanly (every part's last fragment written), before a stop. */
  async finish(): Promise<void> {
    this.stop();
    await Promise.all([...this.finishing]);
  }
}
