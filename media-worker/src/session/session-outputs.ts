import type { OutputPolicy, OutputStats, PipelineReport, RenderPlan } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { DestinationSet } from '../pipeline/outputs/destination-set.ts';
import { FlvFanout } from '../pipeline/outputs/flv-fanout.ts';
import type { OutputEgress } from '../pipeline/outputs/rtmp-egress.ts';

/** How often the destinations' byte counts, bitrate and stall watchdog are looked at. */
const TICK_MS = 1000;

/**
 * One session's destinations, in the worker (issue 54): each canvas's fan-out, where the pipeline
 * process's FLV arrives over loopback, and one RTMP connection per destination fed from it. It
 * outlives the session's pipeline processes: a pipeline that crashes or is replaced for a new
 * output profile leaves every connection up, the fan-out holds the picture and sends silence until
 * the next pipeline's first keyframe and carries its stream on the same timeline (flv-fanout.ts).
 * Destinations come and go here as the plan says; the pipeline is only told to make a keyframe.
 */
export class SessionOutputs {
  private readonly destinations: DestinationSet;
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  private constructor(
    private readonly horizontal: FlvFanout,
    private readonly vertical: FlvFanout,
    policy: OutputPolicy,
    egress: OutputEgress,
    logger: Logger,
    report: (report: PipelineReport & { type: 'outputStatus' }) => void,
    private readonly requestKeyframe: (canvas: 'horizontal' | 'vertical') => void,
  ) {
    this.destinations = new DestinationSet(policy, egress, logger, (status) => report({ type: 'outputStatus', ...status }), new Set());
    this.timer = setInterval(() => {
      const now = Date.now();
      for (const output of this.destinations.values()) output.tick(now);
    }, TICK_MS);
  }

  static async open(
    profile: RenderPlan['profile'],
    policy: OutputPolicy,
    egress: OutputEgress,
    logger: Logger,
    report: (report: PipelineReport & { type: 'outputStatus' }) => void,
    requestKeyframe: (canvas: 'horizontal' | 'vertical') => void,
  ): Promise<SessionOutputs> {
    const carry = { fps: profile.fps, videoBitrateKbps: profile.videoBitrateKbps };
    const [horizontal, vertical] = await Promise.all([FlvFanout.listen('outputs', logger, carry), FlvFanout.listen('vertical-outputs', logger, carry)]);
    return new SessionOutputs(horizontal, vertical, policy, egress, logger, report, requestKeyframe);
  }

  /** Where the pipeline process's sinks connect. */
  get ports(): { horizontal: number; vertical: number } {
    return { horizontal: this.horizontal.port, vertical: this.vertical.port };
  }

  /** Stream time (ms) each gap of the horizontal canvas held while no pipeline fed it. */
  get gapsFilled(): readonly number[] {
    return this.horizontal.gapsFilled;
  }

  /**
   * Makes the destinations those of `plan` (added, removed or replaced; the others untouched). A
   * vertical output is fed from the vertical canvas when the plan has one, which the pipeline
   * attaches for it; otherwise from the horizontal one, as the pipeline then does.
   */
  set(plan: RenderPlan): void {
    if (this.closed) return;
    const { profile } = plan;
    this.destinations.set(
      plan.outputs,
      profile.videoBitrateKbps + profile.audioBitrateKbps,
      { fanout: this.horizontal, requestKeyframe: () => this.requestKeyframe('horizontal') },
      plan.vertical ? { fanout: this.vertical, requestKeyframe: () => this.requestKeyframe('vertical') } : undefined,
    );
  }

  stats(): OutputStats[] {
    return [...this.destinations.values()].map((o) => o.stats());
  }

  /** Every connection closes (the session stops, is given up, or this worker lost it). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    this.destinations.detachAll();
    this.horizontal.close();
    this.vertical.close();
  }
}

/** The session's stats with its destinations' figures, which the worker has and the pipeline does not. */
export function withOutputs<T extends { outputs: OutputStats[]; bitrateKbps: number }>(stats: T, outputs: OutputStats[]): T {
  return { ...stats, outputs, bitrateKbps: outputs.reduce((sum, o) => sum + o.bitrateKbps, 0) };
}
