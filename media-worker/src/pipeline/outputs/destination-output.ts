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
import { linkPads, makeChainBin, makeElement, requestPad, staticPad, structureNumber } from '../../gst/elements.ts';
import { loadGst, type GstBin, type GstElement, type GstPad } from '../../gst/gst.ts';
import type { BusError } from '../../gst/pipeline.ts';
import type { OutputEgress } from './rtmp-egress.ts';

export interface OutputStatus {
  outputId: string;
  state: OutputState;
  errorCode?: PipelineErrorCode;
  reason?: string;
}

/** Bytes a publish exchanges before the server accepts it (handshake 2 × 1537, connect, createStream). */
const HANDSHAKE_BYTES = 8 * 1024;

/**
 * What a connection error means for the creator. A server that accepts TCP and then drops the
 * publish is refusing this stream (a bad or revoked key on every platform we target); a server
 * that cannot be reached at all is a wrong address or a platform outage.
 */
export function classifyConnectError(message: string): PipelineErrorCode {
  if (/publish' cmd failed|closed remotely|rejected|BadName|unauthori[sz]ed|forbidden/i.test(message)) return 'DESTINATION_REFUSED';
  if (/TLS|certificate|handshake/i.test(message)) return 'DESTINATION_TLS_FAILED';
  return 'DESTINATION_UNREACHABLE';
}

/**
 * One destination: its own bin behind the encoder's tee, `queue (leaky) ! errorignore !
 * rtmp2sink`. The leaky queue keeps a slow server from holding back the tee; errorignore turns the
 * sink's failure into OK upstream so the tee and every other output go on; the sink connects on
 * its first buffer (async-connect=false) so an unreachable server cannot keep the pipeline from
 * PLAYING. An error resets only this output: after a backoff its bin is replaced by a fresh one
 * (new tee pad, new sink, new connection) while the tee keeps feeding the other outputs. Every
 * connection goes through the process's RTMP egress, which checks the server's address again
 * (the api checked it when it was saved; a name can be re-pointed at an internal address since)
 * and connects to the address it checked; a refused one fails the output with the reason.
 */
/** RTMP chunk size of every output (bytes). */
const RTMP_CHUNK_SIZE = 4096;

export class DestinationOutput {
  private readonly baseName: string;
  /** Each connection attempt gets a fresh bin; the generation keeps late messages of an old one apart. */
  private generation = 0;
  private state: OutputState = 'connecting';
  private bin: GstBin | undefined;
  private sink: GstElement | undefined;
  private teePad: GstPad | undefined;
  private everLive = false;
  private reconnects = 0;
  private attempt = 0;
  private downSince: number | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private connectionBytes = 0;
  private previousConnectionsBytes = 0;
  private lastBytes = 0;
  private lastBytesAt = Date.now();
  private lastProgressAt = Date.now();
  /** When the current bin was built: an attempt that neither connects nor fails is retried. */
  private attemptStartedAt = Date.now();
  private bitrateKbps = 0;
  private errorCode: PipelineErrorCode | undefined;
  private detached = false;
  private releasePermit: (() => void) | undefined;

  constructor(
    readonly spec: PlanOutput,
    index: number,
    private readonly pipeline: GstBin,
    private readonly tee: GstElement,
    private readonly policy: OutputPolicy,
    private readonly report: (status: OutputStatus) => void,
    private readonly logger: Logger,
    private readonly egress: OutputEgress,
    /** Asks the program's encoder for a keyframe, so a new connection shows a picture at once. */
    private readonly requestKeyframe: () => void = () => {},
    /** Connected in the session's previous pipeline process: a refusal now is a handover, retried with backoff. */
    continuing = false,
  ) {
    this.baseName = `output${index}`;
    this.everLive = continuing;
  }

  get id(): string {
    return this.spec.id;
  }

  get current(): OutputState {
    return this.state;
  }

  /** Name of the bin of the current connection attempt (bus messages are matched on it). */
  get binName(): string {
    return `${this.baseName}g${this.generation}`;
  }

  /** The URL given to the sink; the key joins here and goes nowhere else. */
  private get location(): string {
    if (!this.spec.key) return this.spec.url;
    return `${this.spec.url.replace(/\/+$/, '')}/${this.spec.key}`;
  }

  attach(): void {
    this.downSince = Date.now();
    this.logger.info({ outputId: this.id, url: redactUrl(this.location) }, 'output attached');
    this.report({ outputId: this.id, state: this.state });
    if (this.egress.unavailable) {
      this.logger.warn({ outputId: this.id, reason: this.egress.unavailable }, 'output not connected: egress unavailable');
      this.fail('DESTINATION_ADDRESS_REFUSED');
      return;
    }
    this.releasePermit = this.egress.permit(this.spec.url, this.spec.allowPrivate ?? process.env.ALLOW_PRIVATE_RTMP === 'true');
    this.buildBin();
  }

  /** Takes the output out of the running pipeline; the other branches of the tee are not touched. */
  detach(finalState: OutputState = 'stopped'): void {
    this.detached = true;
    this.releasePermit?.();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.removeBin();
    if (this.state !== finalState && outputTransitions[this.state].includes(finalState)) this.transition(finalState);
  }

  private buildBin(): void {
    const name = this.binName;
    const sink = makeElement('rtmp2sink', `${name}-sink`, {
      'async-connect': false,
      // No preroll: a sink added to a playing pipeline must not wait for an async state change.
      async: false,
      'enable-last-sample': false,
      sync: false,
      // rtmp2sink's default is RTMP's initial 128 bytes: a 720p frame then goes out as ~100 chunks,
      // each with its own header and write. 4096, as OBS and ffmpeg use, is announced to the server
      // with Set Chunk Size before any media.
      'chunk-size': RTMP_CHUNK_SIZE,
    });
    // Set as a property, never through a launch string: nothing that is logged or dumped holds it.
    sink.location = this.location;
    const bin = makeChainBin(
      name,
      [
        makeElement('queue', `${name}-queue`, { leaky: 'downstream', 'max-size-time': 2_000_000_000, 'max-size-buffers': 0, 'max-size-bytes': 0 }),
        makeElement('errorignore', `${name}-errorignore`, { 'ignore-error': true, 'ignore-notlinked': true, 'convert-to': 'ok' }),
        sink,
      ],
      { sink: true },
    );
    this.pipeline.add(bin);
    this.bin = bin;
    this.sink = sink;
    this.connectionBytes = 0;
    this.lastProgressAt = Date.now();
    this.attemptStartedAt = Date.now();
    // Playing before it is linked: a tee pushing into a pad that is still flushing gets FLUSHING
    // back, and a tee returning that upstream stops the muxer's task, the whole program with it.
    bin.syncStateWithParent();
    // A fresh link makes the tee send its sticky events again (caps with the FLV stream header,
    // segment), which a new RTMP connection needs before any media.
    this.teePad = requestPad(this.tee, 'src_%u');
    linkPads(this.teePad, staticPad(bin, 'sink'));
    // Its first frames reach the server while it connects: make one of them a keyframe.
    this.requestKeyframe();
  }

  private removeBin(): void {
    if (this.teePad && this.bin) {
      // Unlink first so the tee stops pushing here, then release its pad; NULL stops the bin's
      // own queue thread. No blocking pad probe: its callback would run on a streaming thread.
      this.teePad.unlink(staticPad(this.bin, 'sink'));
      this.tee.releaseRequestPad(this.teePad);
    }
    if (this.bin) {
      this.bin.setState(loadGst().State.NULL);
      this.pipeline.remove(this.bin);
    }
    this.previousConnectionsBytes += this.connectionBytes;
    this.connectionBytes = 0;
    this.bin = undefined;
    this.sink = undefined;
    this.teePad = undefined;
  }

  /** A bus error from an element inside this output's bin. */
  handleError(error: BusError): void {
    if (this.state === 'failed' || this.state === 'stopped') return;
    const refusal = this.egress.refusedSince(this.spec.url, this.attemptStartedAt);
    if (refusal) {
      // The egress would not connect to where the name points now: retrying cannot help.
      this.logger.warn({ outputId: this.id, reason: refusal }, 'output address refused');
      this.fail('DESTINATION_ADDRESS_REFUSED');
      return;
    }
    const code = classifyConnectError(error.message);
    if (!this.everLive && this.state === 'connecting') {
      // Never connected: the creator has to fix something (key, address); retrying only hides it.
      this.logger.warn({ outputId: this.id, code, detail: error.message }, 'output could not connect');
      this.fail(code);
      return;
    }
    this.logger.warn({ outputId: this.id, detail: error.message }, 'output connection lost');
    this.scheduleReconnect(code === 'DESTINATION_REFUSED' ? 'DESTINATION_REFUSED' : 'DESTINATION_LOST');
  }

  /** Called every second: byte counts, bitrate, live detection and the stall watchdog. */
  tick(now = Date.now()): void {
    if (!this.sink || this.state === 'failed' || this.state === 'stopped') return;
    const stats = this.sink.stats as { toString(): string } | null;
    const bytes = structureNumber(stats, 'out-bytes-total');
    this.connectionBytes = bytes;
    const total = this.previousConnectionsBytes + bytes;
    const elapsed = (now - this.lastBytesAt) / 1000;
    if (elapsed > 0) this.bitrateKbps = Math.max(0, ((total - this.lastBytes) * 8) / 1000 / elapsed);
    const progressed = total > this.lastBytes;
    if (progressed) this.lastProgressAt = now;
    this.lastBytes = total;
    this.lastBytesAt = now;

    if ((this.state === 'connecting' || this.state === 'reconnecting') && bytes > HANDSHAKE_BYTES && progressed && !this.retryTimer) {
      this.everLive = true;
      this.attempt = 0;
      this.downSince = undefined;
      this.errorCode = undefined;
      this.transition('live');
      return;
    }
    if (this.state === 'live' && now - this.lastProgressAt > this.policy.stallAfterMs) {
      this.logger.warn({ outputId: this.id, stalledMs: now - this.lastProgressAt }, 'output stalled');
      this.scheduleReconnect('DESTINATION_STALLED');
      return;
    }
    // An attempt that neither connected nor failed (a server that accepts TCP and then says
    // nothing, or a sink that never got going) counts as failed: it must not wait forever.
    if (this.state !== 'live' && !this.retryTimer && now - this.attemptStartedAt > this.policy.stallAfterMs) {
      this.logger.warn({ outputId: this.id, waitedMs: now - this.attemptStartedAt }, 'output connection attempt timed out');
      if (!this.everLive && this.state === 'connecting') this.fail('DESTINATION_UNREACHABLE');
      else this.scheduleReconnect(this.errorCode ?? 'DESTINATION_LOST');
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

  /** Reset this output only: its bin (and connection) is replaced by a fresh one. */
  private cycle(): void {
    if (this.detached) return;
    this.reconnects += 1;
    this.removeBin();
    this.generation += 1;
    this.logger.info({ outputId: this.id, attempt: this.attempt }, 'output reconnecting');
    this.buildBin();
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
