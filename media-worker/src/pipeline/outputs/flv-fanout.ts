import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { silentAacFrame } from './aac-silence.ts';
import type { Logger } from '@onair/runtime';
import { makeElement } from '../../gst/elements.ts';
import type { GstElement } from '../../gst/gst.ts';
import { aacSampleRate, FLV_HEADER_BYTES, FlvTag, TAG_HEADER_BYTES, tagOf } from './flv-tags.ts';
import { MessageType } from './rtmp/chunks.ts';

/** More than the 2 s GOP's video and audio tags at 30 fps (60 + ~94): a GOP is never cut short. */
const MAX_GOP_TAGS = 1000;

/**
 * The pipeline's end of a canvas's fan-out: `queue ! tcpclientsink` to append after the muxer,
 * connecting to the worker's FlvFanout on `port`. The queue holds about `seconds` of the stream at
 * `bitrateKbps`, counted in bytes: counted in time, a muxer that starts in a pipeline already
 * playing (the vertical canvas attached live) stamps its FLV header 0 and its first tags with the
 * pipeline's running time, so the queue saw minutes in it and leaked the header.
 */
export class FlvSink {
  constructor(
    private readonly name: string,
    readonly port: number,
  ) {}

  elements(bitrateKbps: number, seconds = 2): GstElement[] {
    return [
      makeElement('queue', `${this.name}-queue`, {
        leaky: 'downstream',
        'max-size-time': 0,
        'max-size-buffers': 0,
        'max-size-bytes': Math.ceil((bitrateKbps * 1000 * seconds) / 8),
      }),
      makeElement('tcpclientsink', `${this.name}-sink`, { host: '127.0.0.1', port: this.port, sync: false, async: false, 'enable-last-sample': false }),
    ];
  }
}

/** What the fan-out needs to hold a stream while no pipeline feeds it. */
export interface CarryOptions {
  fps: number;
  videoBitrateKbps: number;
}

/** How often the gap filler looks at the clock. */
const FILL_TICK_MS = 10;

/**
 * Where a canvas's encoded program reaches the destinations: the pipeline process's FLV muxer
 * writes one stream over loopback TCP (FlvSink, behind a leaky queue so a slow JS thread drops
 * whole tags instead of holding the encoder) to the worker, which cuts it into tags and hands
 * every tag to each destination's RTMP connection. One mux, one copy into JS and one chunking per
 * tag, whatever the number of destinations; each destination costs one socket write per tag.
 *
 * It lives in the worker and outlives the pipeline process (issue 54): when the pipeline goes (a
 * crash, a new output profile) the destinations keep their connections and the stream keeps its
 * one timeline. While no pipeline feeds it, the last keyframe is repeated and AAC silence is sent
 * (held picture and silence, stamped on the wall clock, so a platform's player does not stall).
 * The next pipeline's stream (a new TCP connection with its own FLV header) is taken from its first
 * keyframe on, its timestamps shifted to follow the last tag sent, and its sequence headers go out
 * only when their bytes differ from those the destinations have.
 */
export class FlvFanout {
  readonly port: number;
  private readonly server: Server;
  private source: Socket | undefined;
  private pending: Buffer = Buffer.alloc(0);
  private headerRead = false;
  private readonly receivers = new Set<(tag: FlvTag) => void>();
  private readonly latest = new Map<'metadata' | 'video' | 'audio', FlvTag>();
  /** The tags from the latest keyframe on, and when that keyframe arrived. */
  private gop: FlvTag[] = [];
  private gopAt = 0;
  /** Added to the timestamps of the current source's tags. */
  private offset = 0;
  /** Whether the current source's first keyframe came; its tags before it are dropped. */
  private sourceStarted = false;
  /** The current source's timestamp of that keyframe: its audio stamped before it is dropped. */
  private sourceKeyAt = 0;
  /** Headers of the current source that came before its first keyframe. */
  private held = new Map<'metadata' | 'video' | 'audio', FlvTag>();
  private lastVideoAt = -1;
  private lastAudioAt = -1;
  /** One AAC frame of silence for the audio configuration in use (aac-silence.ts). */
  private silence: { config: string; frame: Buffer | undefined } | undefined;
  private filler: NodeJS.Timeout | undefined;
  private closed = false;
  /** Gaps filled, and the stream time each held (ms). */
  private filled: number[] = [];

  private constructor(
    private readonly name: string,
    private readonly logger: Logger,
    server: Server,
    private readonly carry: CarryOptions,
  ) {
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    server.on('connection', (socket) => this.accept(socket));
  }

  /** Listening on loopback: the pipeline's sink connects to it when its muxer starts. */
  static async listen(name: string, logger: Logger, carry: CarryOptions = { fps: 30, videoBitrateKbps: 2500 }): Promise<FlvFanout> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return new FlvFanout(name, logger, server, carry);
  }

  /** The latest metadata and sequence headers: what a destination sends before its first keyframe. */
  headers(): FlvTag[] {
    return (['metadata', 'video', 'audio'] as const).flatMap((kind) => this.latest.get(kind) ?? []);
  }

  /**
   * The media from the latest keyframe on, if that keyframe arrived at or after `sinceMs` (a
   * destination that asked for a keyframe when it began connecting starts here, without waiting
   * for the next one); otherwise nothing.
   */
  keyframeSince(sinceMs: number): FlvTag[] {
    return this.gop.length > 0 && this.gopAt >= sinceMs ? this.gop : [];
  }

  /** Every tag from now on, until the returned function is called. */
  subscribe(receiver: (tag: FlvTag) => void): () => void {
    this.receivers.add(receiver);
    return () => this.receivers.delete(receiver);
  }

  /** Stream time (ms) each filled gap held, oldest first. */
  get gapsFilled(): readonly number[] {
    return this.filled;
  }

  close(): void {
    this.closed = true;
    this.stopFilling();
    this.receivers.clear();
    this.source?.destroy();
    this.server.close();
  }

  private accept(socket: Socket): void {
    // One muxer writes here at a time; a new one (the next pipeline process, or a sink that
    // restarted) starts a new FLV stream, carried on from its first keyframe.
    if (this.source) this.logger.warn({ fanout: this.name }, 'encoded stream connected again: a new FLV stream');
    this.source?.destroy();
    this.source = socket;
    this.pending = Buffer.alloc(0);
    this.headerRead = false;
    this.sourceStarted = false;
    this.held = new Map();
    socket.on('data', (data: Buffer) => {
      if (this.source === socket) this.read(data);
    });
    socket.on('error', (err) => this.logger.warn({ fanout: this.name, err: err.message }, 'encoded stream connection failed'));
    socket.on('close', () => {
      if (this.source !== socket || this.closed) return;
      this.source = undefined;
      // The pipeline went (crashed, replaced): hold the stream until the next one sends a keyframe.
      this.startFilling();
    });
  }

  private read(data: Buffer): void {
    let buf = this.pending.length === 0 ? data : Buffer.concat([this.pending, data]);
    if (!this.headerRead) {
      if (buf.length < FLV_HEADER_BYTES) {
        this.pending = buf;
        return;
      }
      if (buf.toString('latin1', 0, 3) !== 'FLV') {
        this.logger.error({ fanout: this.name, head: buf.subarray(0, 16).toString('hex') }, 'encoded stream is not FLV');
        this.source?.destroy();
        return;
      }
      buf = buf.subarray(buf.readUInt32BE(5) + 4);
      this.headerRead = true;
    }
    let offset = 0;
    while (buf.length - offset >= TAG_HEADER_BYTES) {
      const type = buf[offset]! & 0x1f;
      const size = buf.readUIntBE(offset + 1, 3);
      const total = TAG_HEADER_BYTES + size + 4;
      if (buf.length - offset < total) break;
      const timestamp = (buf.readUIntBE(offset + 4, 3) | (buf[offset + 7]! << 24)) >>> 0;
      // A view, not a copy: each read of a Node socket gets memory of its own.
      const tag = tagOf(type, timestamp, buf.subarray(offset + TAG_HEADER_BYTES, offset + TAG_HEADER_BYTES + size));
      offset += total;
      if (tag) this.take(tag);
    }
    this.pending = buf.subarray(offset);
  }

  /** One tag of the current source, onto the stream's timeline. */
  private take(tag: FlvTag): void {
    if (!this.sourceStarted) {
      if (tag.header) {
        this.held.set(tag.header, tag);
        return;
      }
      if (!tag.keyframe) return;
      // The first keyframe of this source: it follows the last tag sent, one frame later.
      const last = Math.max(this.lastVideoAt, this.lastAudioAt);
      this.offset = last < 0 ? 0 : last + Math.round(1000 / this.carry.fps) - tag.timestamp;
      this.sourceStarted = true;
      this.sourceKeyAt = tag.timestamp;
      if (this.filler) {
        this.stopFilling();
        this.logger.info({ fanout: this.name, heldMs: this.filled.at(-1) }, 'encoded stream carried on');
      }
      for (const header of this.held.values()) this.sendHeader(header, tag.timestamp);
      this.held.clear();
      this.send(this.rebased(tag, tag.timestamp));
      return;
    }
    if (tag.header) {
      this.sendHeader(tag, tag.timestamp);
      return;
    }
    // Sound stamped before the keyframe the stream was taken from would go back in time.
    if (tag.type === MessageType.Audio && tag.timestamp < this.sourceKeyAt) return;
    this.send(this.rebased(tag, tag.timestamp));
  }

  private rebased(tag: FlvTag, timestamp: number): FlvTag {
    const at = Math.max(0, timestamp + this.offset);
    return at === tag.timestamp ? tag : new FlvTag(tag.type, at, tag.body, tag.keyframe, tag.header);
  }

  /** A sequence header or metadata goes out only if the destinations do not have these bytes already. */
  private sendHeader(tag: FlvTag, timestamp: number): void {
    const kind = tag.header!;
    if (this.latest.get(kind)?.body.equals(tag.body)) return;
    this.send(this.rebased(tag, timestamp));
  }

  private send(tag: FlvTag): void {
    if (tag.header) {
      this.latest.set(tag.header, tag);
      if (tag.header === 'audio') this.prepareSilence(tag);
    } else {
      if (tag.type === MessageType.Video) this.lastVideoAt = Math.max(this.lastVideoAt, tag.timestamp);
      if (tag.type === MessageType.Audio) this.lastAudioAt = Math.max(this.lastAudioAt, tag.timestamp);
      if (tag.keyframe) {
        this.gop = [tag];
        this.gopAt = Date.now();
      } else if (this.gop.length > 0 && this.gop.length < MAX_GOP_TAGS) this.gop.push(tag);
    }
    for (const receiver of this.receivers) receiver(tag);
  }

  /** The AAC silence for this audio configuration, encoded once (aac-silence.ts). */
  private prepareSilence(header: FlvTag): void {
    const config = header.body.subarray(2).toString('hex');
    if (this.silence?.config === config) return;
    const silence: { config: string; frame: Buffer | undefined } = { config, frame: undefined };
    this.silence = silence;
    silentAacFrame(header.body.subarray(2)).then(
      (frame) => {
        silence.frame = frame;
        if (!frame) this.logger.warn({ fanout: this.name, config }, 'no AAC silence for this audio configuration: gaps are filled with the picture only');
      },
      (err: unknown) => this.logger.warn({ fanout: this.name, err: err instanceof Error ? err.message : String(err) }, 'AAC silence could not be encoded'),
    );
  }

  /**
   * Holds the stream while no pipeline feeds it: the last keyframe again at the frame rate (less
   * often if the keyframe is big, so the held picture stays within the video bitrate) and a frame
   * of AAC silence every 1024 samples, stamped on the wall clock from the last tag sent.
   */
  private startFilling(): void {
    // The latest keyframe sent (a pipeline's, or the one already held).
    const key = this.gop[0];
    if (this.filler || this.closed || !key) return;
    const startedAt = performance.now();
    const from = Math.max(this.lastVideoAt, this.lastAudioAt);
    const videoStep = Math.max(1000 / this.carry.fps, (key.body.length * 8) / this.carry.videoBitrateKbps);
    const audioConfig = this.latest.get('audio')?.body.subarray(2);
    const rate = audioConfig ? aacSampleRate(audioConfig) : undefined;
    const audioStep = rate ? (1024 * 1000) / rate : undefined;
    let nextVideo = this.lastVideoAt + videoStep;
    let nextAudio = audioStep ? this.lastAudioAt + audioStep : Number.POSITIVE_INFINITY;
    let last = from;
    this.logger.info({ fanout: this.name, at: from }, 'encoded stream gone: holding the picture and sending silence');
    this.filler = setInterval(() => {
      // Nobody to hold the picture for (a vertical canvas detached with its last destination): idle.
      if (this.receivers.size === 0) return;
      const until = from + (performance.now() - startedAt);
      const frame = this.silence?.frame;
      while (Math.min(nextVideo, nextAudio) <= until) {
        if (nextAudio <= nextVideo) {
          if (frame) this.send(new FlvTag(MessageType.Audio, Math.round(nextAudio), frame, false, undefined));
          last = nextAudio;
          nextAudio += audioStep!;
        } else {
          this.send(new FlvTag(MessageType.Video, Math.round(nextVideo), key.body, true, undefined));
          last = nextVideo;
          nextVideo += videoStep;
        }
      }
      this.fillSpan = last - from;
    }, FILL_TICK_MS);
    this.fillSpan = 0;
  }

  private fillSpan = 0;

  private stopFilling(): void {
    if (!this.filler) return;
    clearInterval(this.filler);
    this.filler = undefined;
    this.filled.push(Math.round(this.fillSpan));
  }
}
