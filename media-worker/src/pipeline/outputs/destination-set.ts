import type { OutputPolicy, PlanOutput } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { DestinationOutput, type OutputStatus } from './destination-output.ts';
import type { FlvFanout } from './flv-fanout.ts';
import type { OutputEgress } from './rtmp-egress.ts';

/** Seconds of a destination's stream that may wait for a slow server before it skips ahead. */
const OUTPUT_QUEUE_SECONDS = 2;

/** Where a canvas's destinations are fed from, and how its encoder is asked for a keyframe. */
export interface CanvasFeed {
  fanout: FlvFanout;
  requestKeyframe(): void;
}

/**
 * The session's destinations: one DestinationOutput (one RTMP publish) per plan output, each fed
 * from the fan-out of its canvas. A new plan adds, removes or replaces only the outputs that
 * changed; the others are not touched.
 */
export class DestinationSet {
  private readonly outputs = new Map<string, DestinationOutput>();

  constructor(
    private readonly policy: OutputPolicy,
    private readonly egress: OutputEgress,
    private readonly logger: Logger,
    private readonly status: (status: OutputStatus) => void,
    /** Outputs whose previous connection was live: they reconnect rather than fail fast (taken once per id). */
    private readonly continuing: Set<string>,
  ) {}

  values(): IterableIterator<DestinationOutput> {
    return this.outputs.values();
  }

  /**
   * Makes the destinations those of `wanted`. A vertical output is fed from the vertical canvas,
   * which the program attaches before (and detaches after) its outputs.
   */
  set(wanted: readonly PlanOutput[], bitrateKbps: number, horizontal: CanvasFeed, vertical: CanvasFeed | undefined): void {
    const byId = new Map(wanted.map((o) => [o.id, o]));
    for (const [id, output] of this.outputs) {
      const next = byId.get(id);
      if (!next || next.url !== output.spec.url || next.key !== output.spec.key || (next.canvas ?? 'horizontal') !== (output.spec.canvas ?? 'horizontal')) {
        // Replaced while connected: the platform may still hold the old publish for a moment, so
        // the new connection waits out its handover instead of failing fast.
        if (next && (output.current === 'live' || output.current === 'reconnecting')) this.continuing.add(id);
        output.detach();
        this.outputs.delete(id);
        this.status({ outputId: id, state: 'stopped' });
      }
    }
    for (const spec of wanted) {
      if (this.outputs.has(spec.id)) continue;
      if (spec.canvas === 'vertical' && !vertical)
        this.logger.warn({ outputId: spec.id }, 'vertical output without a vertical canvas: it gets the horizontal one');
      const feed = spec.canvas === 'vertical' && vertical ? vertical : horizontal;
      const output = new DestinationOutput(
        spec,
        feed.fanout,
        this.policy,
        this.status,
        this.logger,
        this.egress,
        () => feed.requestKeyframe(),
        this.continuing.delete(spec.id),
        // About 2 s of the stream may wait for a slow server before it skips ahead.
        Math.ceil((bitrateKbps * 1000 * OUTPUT_QUEUE_SECONDS) / 8),
      );
      this.outputs.set(spec.id, output);
      output.attach();
    }
  }

  /** Stream keys of the destinations, to scrub from any text GStreamer produced. */
  keys(): string[] {
    return [...this.outputs.values()].map((o) => o.spec.key).filter((k): k is string => typeof k === 'string' && k.length >= 4);
  }

  detachAll(): void {
    for (const output of this.outputs.values()) output.detach();
    this.outputs.clear();
  }
}
