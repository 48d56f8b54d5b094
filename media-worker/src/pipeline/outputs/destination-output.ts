import {
  outputTransitions,
  pipelineErrorCatalogue,
  type OutputPolicy,
  type OutputState,
  type OutputStats,
  type PipelineErrorCode,
  type PlanOutput,
} from '@onair/protocol';
import { redactUrl, type Logger } from '@onair/runtime';
import type { FlvFanout } from './flv-fanout.ts';
import type { FlvTag } from './flv-tags.ts';
import type { OutputEgress } from './rtmp-egress.ts';
import { RtmpPublisher, type PublisherFailure } from './rtmp/publisher.ts';

export interface OutputStatus {
  outputId: string;
  state: OutputState;
  errorCode?: PipelineErrorCode;
  reason?: string;
}

/**
 * One destination: its own RTMP connection (rtmp/publisher.ts), fed by its canvas's FLV fan-out
 * (flv-fanout.ts), which hands the same ready-made chunks of every tag to every destination. A new
 * connection gets the latest metadata and sequence headers, asks the encoder for a keyframe and
 * starts at it. A destination that reads slower than the stream is made drops tags instead of
 * holding anyone back: past `maxQueuedBytes` (about 2 s of the stream) waiting in this process it
 * skips to a later keyframe. Its failure resets only itself: after a backoff a fresh connection is
 * made while the others go on. Every connection goes to the address the egress checked for its
 * server (the api checked the name when it was saved; it can be re-pointed at an internal address
 * since), and the tcUrl keeps the name, so servers that route on it still work.
 */
/** First connection attempts that may time out (no answer, no refusal) before the destination fails. */
const FIRST_CONNECT_TRIES = 3;

export class DestinationOutput {
  /** Each connection attempt gets a generation; late events of an old one are ignored. */
  private generation = 0;
  private state: OutputState = 'connecting';
  private publisher: RtmpPublisher | undefined;
  private unsubscribe: (() => void) | undefined;
  /** Tags are skipped until a keyframe: at the start of a connection and after falling behind. */
  private awaitingKeyframe = true;
  private everLive = false;
  /** The server took this attempt's publish (what is missing then is the picture, not the destination). */
  private publishing = false;
  /** First attempts that timed out before the server took the publish (FIRST_CONNECT_TRIES). */
  private firstTimeouts = 0;
  private reconnects = 0;
  private attempt = 0;
  private downSince: number | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private connectionBytes = 0;
  private previousConnectionsBytes = 0;
  private lastBytes = 0;
  private lastBytesAt = Date.now();
  private lastProgressAt = Date.now();
  /** When the current attempt began: an attempt that neither connects nor fails is retried. */
  private attemptStartedAt = Date.now();
  private bitrateKbps = 0;
  private skippedTags = 0;
  private errorCode: PipelineErrorCode | undefined;
  private detached = false;

  constructor(
    readonly spec: PlanOutput,
    private readonly fanout: FlvFanout,
    private readonly policy: OutputPolicy,
    private readonly report: (status: OutputStatus) => void,
    private readonly logger: Logger,
    private readonly egress: OutputEgress,
    /** Asks the canvas's encoder for a keyframe, so a new connection shows a picture at once. */
    private readonly requestKeyframe: () => void = () => {},
    /** Connected in the session's previous pipeline process: a refusal now is a handover, retried with backoff. */
    continuing = false,
    /** Bytes this destination may have waiting in this process before it skips ahead. */
    private readonly maxQueuedBytes = 2 * 1024 * 1024,
  ) {
    this.everLive = continuing;
  }

  get id(): string {
    return this.spec.id;
  }

  get current(): OutputState {
    return this.state;
  }

  attach(): void {
    this.downSince = Date.now();
    this.logger.info(
      { outputId: this.id, url: redactUrl(this.spec.key ? `${this.spec.url.replace(/\/+$/, '')}/${this.spec.key}` : this.spec.url) },
      'output attached',
    );
    this.report({ outputId: this.id, state: this.state });
    this.open();
  }

  /** Closes this output's connection; the other outputs are not touched. */
  detach(finalState: OutputState = 'stopped'): void {
    this.detached = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.closeConnection();
    if (this.state !== finalState && outputTransitions[this.state].includes(finalState)) this.transition(finalState);
  }

  /** A new attempt: check the server's address, then connect to the address checked. */
  private open(): void {
    const generation = this.generation;
    this.connectionBytes = 0;
    this.lastProgressAt = Date.now();
    this.attemptStartedAt = Date.now();
    const allowPrivate = this.spec.allowPrivate ?? process.env.ALLOW_PRIVATE_RTMP === 'true';
    // Asked for now, while the address is checked and the connection made: by the time the server
    // lets us publish the keyframe is usually there, so the first picture waits for neither.
    this.requestKeyframe();
    void this.egress.check(this.spec.url, allowPrivate).then(
      (decision) => {
        if (this.detached || generation !== this.generation) return;
        if (!decision.allowed) {
          // The name points somewhere this server does not stream to: retrying cannot help.
          this.logger.warn({ outputId: this.id, reason: decision.reason }, 'output address refused');
          this.fail('DESTINATION_ADDRESS_REFUSED');
          return;
        }
        this.connect(decision.address, generation);
      },
      (err: Error) => {
        if (this.detached || generation !== this.generation) return;
        this.logger.warn({ outputId: this.id, detail: err.message }, 'output address could not be checked');
        this.onFailure({ code: 'DESTINATION_UNREACHABLE', detail: err.message });
      },
    );
  }

  private connect(address: string, generation: number): void {
    let publisher: RtmpPublisher;
    try {
      publisher = new RtmpPublisher({ url: this.spec.url, key: this.spec.key, address, keySetByOnAir: this.spec.keySetByOnAir });
    } catch (err) {
      this.logger.warn({ outputId: this.id, detail: (err as Error).message }, 'output could not connect');
      this.fail('DESTINATION_UNREACHABLE');
      return;
    }
    this.publisher = publisher;
    this.awaitingKeyframe = true;
    publisher.on('failed', (failure) => {
      if (generation === this.generation) this.onFailure(failure);
    });
    publisher.on('publishing', () => {
      if (generation !== this.generation) return;
      this.publishing = true;
      // The latest metadata and codec headers first, then media from the keyframe asked for when
      // this attempt began: already made (the frames since go out at once) or still to come.
      for (const tag of this.fanout.headers()) publisher.write(tag.chunksFor(publisher.streamId!));
      const since = this.fanout.keyframeSince(this.attemptStartedAt);
      for (const tag of since) publisher.write(tag.chunksFor(publisher.streamId!));
      this.awaitingKeyframe = since.length === 0;
      this.unsubscribe = this.fanout.subscribe((tag) => this.deliver(publisher, tag));
      if (!this.awaitingKeyframe && (this.state === 'connecting' || this.state === 'reconnecting')) this.goLive();
    });
    publisher.start();
  }

  private deliver(publisher: RtmpPublisher, tag: FlvTag): void {
    if (tag.header) {
      // A new sequence header (the encoder re-opened) goes out at once, whatever is skipped.
      publisher.write(tag.chunksFor(publisher.streamId!));
      return;
    }
    if (this.awaitingKeyframe) {
      if (!tag.keyframe || publisher.queuedBytes > this.maxQueuedBytes / 2) return;
      this.awaitingKeyframe = false;
      publisher.write(tag.chunksFor(publisher.streamId!));
      // The server took the publish and has its first picture: live now, not at the next tick.
      if (this.state === 'connecting' || this.state === 'reconnecting') this.goLive();
      return;
    } else if (publisher.queuedBytes > this.maxQueuedBytes) {
      // This server reads slower than the stream is made: skip to a later keyframe.
      this.awaitingKeyframe = true;
      this.skippedTags += 1;
      if (this.skippedTags === 1 || this.skippedTags % 100 === 0)
        this.logger.warn({ outputId: this.id, queuedBytes: publisher.queuedBytes, skippedTags: this.skippedTags }, 'output behind: skipping to a keyframe');
      return;
    }
    publisher.write(tag.chunksFor(publisher.streamId!));
  }

  private closeConnection(): void {
    this.publishing = false;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.publisher?.close();
    this.publisher = undefined;
    this.previousConnectionsBytes += this.connectionBytes;
    this.connectionBytes = 0;
  }

  /** The connection failed, or the server refused or dropped the publish. */
  private onFailure({ code, detail }: PublisherFailure): void {
    if (this.state === 'failed' || this.state === 'stopped') return;
    this.closeConnection();
    if (!this.everLive && this.state === 'connecting') {
      // Never connected: the creator has to fix something (key, address); retrying only hides it.
      this.logger.warn({ outputId: this.id, code, detail }, 'output could not connect');
      this.fail(code);
      return;
    }
    this.logger.warn({ outputId: this.id, detail }, 'output connection lost');
    this.scheduleReconnect(
      code === 'DESTINATION_REFUSED' || code === 'DESTINATION_STREAM_REFUSED' || code === 'DESTINATION_IN_USE' ? code : 'DESTINATION_LOST',
    );
  }

  /** Called every second: byte counts, bitrate and the stall watchdog. */
  tick(now = Date.now()): void {
    if (this.detached || this.state === 'failed' || this.state === 'stopped') return;
    const publisher = this.publisher;
    const bytes = publisher?.bytesSent ?? 0;
    this.connectionBytes = bytes;
    const total = this.previousConnectionsBytes + bytes;
    const elapsed = (now - this.lastBytesAt) / 1000;
    if (elapsed > 0) this.bitrateKbps = Math.max(0, ((total - this.lastBytes) * 8) / 1000 / elapsed);
    const progressed = total > this.lastBytes;
    if (progressed) this.lastProgressAt = now;
    this.lastBytes = total;
    this.lastBytesAt = now;

    if (this.state === 'live' && now - this.lastProgressAt > this.policy.stallAfterMs) {
      this.logger.warn({ outputId: this.id, stalledMs: now - this.lastProgressAt }, 'output stalled');
      this.scheduleReconnect('DESTINATION_STALLED');
      return;
    }
    // An attempt that neither connected nor failed (a server that accepts TCP and then says
    // nothing, or one that never lets us publish) counts as failed: it must not wait forever.
    if (this.state !== 'live' && !this.retryTimer && now - this.attemptStartedAt > this.policy.stallAfterMs) {
      if (this.publishing) {
        // The server took the publish: what has not come is the encoder's keyframe (a pipeline
        // still starting, or slow on a loaded machine), which is no fault of this destination.
        // The connection stays; the keyframe is asked for again.
        this.logger.warn({ outputId: this.id, waitedMs: now - this.attemptStartedAt }, 'output published, waiting for the first picture');
        this.attemptStartedAt = now;
        this.requestKeyframe();
        return;
      }
      this.logger.warn({ outputId: this.id, waitedMs: now - this.attemptStartedAt }, 'output connection attempt timed out');
      if (!this.everLive && this.state === 'connecting') {
        // A first attempt that neither connected nor was refused: a slow network or a loaded
        // machine as likely as a wrong address, so it is tried again a few times before failing.
        this.firstTimeouts += 1;
        if (this.firstTimeouts >= FIRST_CONNECT_TRIES) this.fail('DESTINATION_UNREACHABLE');
        else this.cycle();
      } else this.scheduleReconnect(this.errorCode ?? 'DESTINATION_LOST');
    }
  }

  stats(): OutputStats {
    return {
      id: this.id,
      state: this.state,
      bytesSent: this.previousConnectionsBytes + this.connectionBytes,
      bitrateKbps: this.state === 'live' ? Math.round(this.bitrateKbps) : 0,
      reconnects: this.reconnects,
      ...(this.errorCode ? { errorCode: this.errorCode } : {}),
    };
  }

  private goLive(): void {
    if (this.retryTimer) return;
    this.everLive = true;
    this.attempt = 0;
    this.downSince = undefined;
    this.errorCode = undefined;
    this.lastProgressAt = Date.now();
    this.transition('live');
  }

  private scheduleReconnect(code: PipelineErrorCode): void {
    const now = Date.now();
    this.downSince ??= now;
    this.errorCode = code;
    if (now - this.downSince > this.policy.giveUpAfterMs) {
      this.fail(this.everLive ? 'DESTINATION_LOST' : code);
      return;
    }
    if (this.state !== 'reconnecting') this.transition('reconnecting');
    if (this.retryTimer) return;
    const delays = this.policy.backoffMs;
    const delay = delays[Math.min(this.attempt, delays.length - 1)] ?? 1000;
    this.attempt += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.cycle();
    }, delay);
  }

  /** Reset this output only: its connection is replaced by a fresh one. */
  private cycle(): void {
    if (this.detached) return;
    this.reconnects += 1;
    this.closeConnection();
    this.generation += 1;
    this.logger.info({ outputId: this.id, attempt: this.attempt }, 'output reconnecting');
    this.open();
  }

  private fail(code: PipelineErrorCode): void {
    this.errorCode = code;
    this.detach('failed');
    this.report({ outputId: this.id, state: 'failed', errorCode: code, reason: pipelineErrorCatalogue[code].message });
  }

  private transition(next: OutputState): void {
    if (!outputTransitions[this.state].includes(next)) throw new Error(`output ${this.id}: ${this.state} → ${next} is not allowed`);
    this.state = next;
    this.logger.info({ outputId: this.id, state: next }, 'output state');
    if (next !== 'failed') this.report({ outputId: this.id, state: next, ...(this.errorCode && next === 'reconnecting' ? { errorCode: this.errorCode } : {}) });
  }
}
