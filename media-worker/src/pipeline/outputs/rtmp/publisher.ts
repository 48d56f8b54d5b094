import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import type { PipelineErrorCode } from '@onair/protocol';
import { decodeAmf0, encodeAmf0, type Amf0Value } from './amf0.ts';
import { ChunkReader, MessageType, serializeMessage, type RtmpMessage } from './chunks.ts';

/** Chunk size every publish announces (Set Chunk Size) before any media, as OBS and ffmpeg use. */
export const RTMP_CHUNK_SIZE = 4096;
/** Chunk streams: protocol control, commands, and one per kind of media (any ids ≥ 3 would do). */
export const ChunkStream = { control: 2, command: 3, data: 4, audio: 5, video: 6 } as const;

const HANDSHAKE_SIZE = 1536;
const CONNECT_TIMEOUT_MS = 10_000;
/** The window we ask the server to acknowledge in (its own acknowledgements are not needed). */
const OWN_WINDOW = 2_500_000;

/** Where and what to publish: `rtmp[s]://host[:port]/app[/…]` and the stream key. */
export interface PublishTarget {
  url: string;
  /** The stream name (key, with any query the platform gave it); the URL's last segment when absent. */
  key?: string;
  /** The address the egress checked for the URL's host: the connection goes there and nowhere else. */
  address: string;
  /** OnAir set the key (Local, a linked or test-mode platform): a refusal is DESTINATION_STREAM_REFUSED, which asks no key check of the creator. */
  keySetByOnAir?: boolean | undefined;
}

export interface ParsedTarget {
  secure: boolean;
  host: string;
  port: number;
  app: string;
  stream: string;
  /** The tcUrl sent in connect: the host as written, so servers that route on it still work. */
  tcUrl: string;
}

export function parseTarget(url: string, key: string | undefined): ParsedTarget {
  const parsed = new URL(url);
  const secure = parsed.protocol === 'rtmps:';
  if (!secure && parsed.protocol !== 'rtmp:') throw new Error(`not an RTMP URL: ${parsed.protocol}`);
  const segments = parsed.pathname.split('/').filter((s) => s !== '');
  const stream = key ?? segments.pop() ?? '';
  const app = segments.join('/');
  if (app === '' || stream === '') throw new Error('an RTMP URL needs an application and a stream name');
  const port = parsed.port !== '' ? Number(parsed.port) : secure ? 443 : 1935;
  return { secure, host: parsed.hostname, port, app, stream, tcUrl: `${parsed.protocol}//${parsed.host}/${app}` };
}

export type PublisherFailure = { code: PipelineErrorCode; detail: string };

/**
 * One RTMP publish (client side): TCP or TLS to the checked address, the handshake, connect →
 * releaseStream / FCPublish / createStream → publish, then media written as ready-made chunks
 * (`write`). Emits `publishing` once the server said NetStream.Publish.Start, and `failed` once
 * with what went wrong; never throws on the network's account.
 */
export class RtmpPublisher extends EventEmitter<{ publishing: []; failed: [PublisherFailure] }> {
  private socket: Socket | undefined;
  private readonly reader = new ChunkReader();
  private handshake: Buffer | undefined = Buffer.alloc(0);
  private connected = false;
  private ended = false;
  private publishingNow = false;
  private messageStreamId: number | undefined;
  private received = 0;
  private acknowledged = 0;
  private serverWindow = 0;
  private readonly target: ParsedTarget;

  constructor(private readonly publish: PublishTarget) {
    super();
    this.target = parseTarget(publish.url, publish.key);
  }

  /** The code of a refused publish: the creator is told to check the key only when they typed it. */
  private get refused(): PipelineErrorCode {
    return this.publish.keySetByOnAir ? 'DESTINATION_STREAM_REFUSED' : 'DESTINATION_REFUSED';
  }

  /** The stream id the server gave (`createStream`); media chunks carry it. */
  get streamId(): number | undefined {
    return this.messageStreamId;
  }

  get publishing(): boolean {
    return this.publishingNow;
  }

  /** Bytes handed to the kernel so far (handshake and commands included). */
  get bytesSent(): number {
    const socket = this.socket;
    return socket ? socket.bytesWritten - socket.writableLength : 0;
  }

  /** Bytes written but still waiting in this process for the socket. */
  get queuedBytes(): number {
    return this.socket?.writableLength ?? 0;
  }

  start(): void {
    const { secure, host, port } = this.target;
    const options = { host: this.publish.address, port, timeout: CONNECT_TIMEOUT_MS };
    const socket = secure ? connectTls({ ...options, servername: host, ALPNProtocols: [] }) : connectTcp({ ...options, noDelay: true });
    this.socket = socket;
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      this.connected = true;
      socket.setTimeout(0);
      if (secure) socket.setNoDelay(true);
      const c1 = Buffer.alloc(HANDSHAKE_SIZE);
      randomBytes(HANDSHAKE_SIZE - 8).copy(c1, 8);
      socket.write(Buffer.concat([Buffer.from([3]), c1]));
    });
    socket.on('data', (data: Buffer) => this.receive(data));
    socket.on('timeout', () => this.fail('DESTINATION_UNREACHABLE', 'connection timed out'));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (secure && !this.connected && !/ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT/.test(err.code ?? ''))
        this.fail('DESTINATION_TLS_FAILED', err.message);
      else this.fail(this.connected ? (this.publishingNow ? 'DESTINATION_LOST' : this.refused) : 'DESTINATION_UNREACHABLE', err.message);
    });
    socket.on('close', () => {
      // Closed by the server after the connection was made but before it let us publish: this
      // stream was refused (a bad key or a channel that may not go live, on every platform we target).
      if (this.connected && !this.publishingNow) this.fail(this.refused, 'closed remotely before the publish started');
      else this.fail(this.publishingNow ? 'DESTINATION_LOST' : 'DESTINATION_UNREACHABLE', 'connection closed');
    });
  }

  /** Media or data, already chunked for this connection's stream id and chunk size. */
  write(chunks: Buffer): void {
    if (this.publishingNow && !this.ended) this.socket?.write(chunks);
  }

  /** Ends the publish politely (FCUnpublish, deleteStream) and closes the connection. */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    const socket = this.socket;
    if (!socket) return;
    if (this.publishingNow && this.messageStreamId !== undefined) {
      socket.write(this.command('FCUnpublish', 0, null, this.target.stream));
      socket.write(this.command('deleteStream', 0, null, this.messageStreamId));
    }
    socket.end();
    // A server that stopped reading would keep the socket open for good.
    setTimeout(() => socket.destroy(), 2000).unref();
  }

  private fail(code: PipelineErrorCode, detail: string): void {
    if (this.ended) return;
    this.ended = true;
    this.publishingNow = false;
    this.socket?.destroy();
    this.emit('failed', { code, detail });
  }

  private command(name: string, transaction: number, ...args: Amf0Value[]): Buffer {
    const body = encodeAmf0(name, transaction, ...args);
    // publish goes on the stream it publishes; everything else on the connection's stream 0.
    const streamId = name === 'publish' ? (this.messageStreamId ?? 0) : 0;
    return serializeMessage(ChunkStream.command, { type: MessageType.CommandAmf0, streamId, timestamp: 0, body }, RTMP_CHUNK_SIZE);
  }

  private control(type: number, body: Buffer): Buffer {
    return serializeMessage(ChunkStream.control, { type, streamId: 0, timestamp: 0, body }, RTMP_CHUNK_SIZE);
  }

  private receive(data: Buffer): void {
    if (this.ended) return;
    this.received += data.length;
    if (this.handshake) {
      this.handshake = Buffer.concat([this.handshake, data]);
      if (this.handshake.length < 1 + 2 * HANDSHAKE_SIZE) return;
      const s1 = this.handshake.subarray(1, 1 + HANDSHAKE_SIZE);
      const rest = this.handshake.subarray(1 + 2 * HANDSHAKE_SIZE);
      this.handshake = undefined;
      const chunkSize = Buffer.alloc(4);
      chunkSize.writeUInt32BE(RTMP_CHUNK_SIZE);
      this.socket?.write(
        Buffer.concat([
          Buffer.from(s1),
          // Our chunk size first: every command and media chunk after it uses it.
          this.control(MessageType.SetChunkSize, chunkSize),
          this.command('connect', 1, {
            app: this.target.app,
            type: 'nonprivate',
            flashVer: 'FMLE/3.0 (compatible; OnAir)',
            tcUrl: this.target.tcUrl,
          }),
        ]),
      );
      if (rest.length === 0) return;
      data = rest;
    }
    let messages: RtmpMessage[];
    try {
      messages = this.reader.push(data);
    } catch (err) {
      this.fail(this.publishingNow ? 'DESTINATION_LOST' : this.refused, `unreadable reply: ${(err as Error).message}`);
      return;
    }
    for (const message of messages) this.handle(message);
    if (this.serverWindow > 0 && this.received - this.acknowledged >= this.serverWindow) {
      this.acknowledged = this.received;
      const body = Buffer.alloc(4);
      body.writeUInt32BE(this.received >>> 0);
      this.socket?.write(this.control(MessageType.Acknowledgement, body));
    }
  }

  private handle(message: RtmpMessage): void {
    switch (message.type) {
      case MessageType.WindowAckSize:
        if (message.body.length >= 4) this.serverWindow = message.body.readUInt32BE(0);
        return;
      case MessageType.SetPeerBandwidth: {
        const body = Buffer.alloc(4);
        body.writeUInt32BE(OWN_WINDOW);
        this.socket?.write(this.control(MessageType.WindowAckSize, body));
        return;
      }
      case MessageType.UserControl:
        // Ping request → ping response with the same timestamp.
        if (message.body.length >= 6 && message.body.readUInt16BE(0) === 6) {
          const body = Buffer.alloc(6);
          body.writeUInt16BE(7);
          message.body.copy(body, 2, 2, 6);
          this.socket?.write(this.control(MessageType.UserControl, body));
        }
        return;
      case MessageType.CommandAmf0:
      case MessageType.CommandAmf3:
        this.onCommand(message.type === MessageType.CommandAmf3 ? message.body.subarray(1) : message.body);
        return;
      default:
    }
  }

  private onCommand(body: Buffer): void {
    let values: Amf0Value[];
    try {
      values = decodeAmf0(body);
    } catch {
      return;
    }
    const [name, transaction] = values;
    const info = values[3];
    const code = info && typeof info === 'object' && !Array.isArray(info) && !(info instanceof Date) ? String(info.code ?? '') : '';
    if (name === '_error') {
      this.fail(this.refused, `the server answered ${transaction === 1 ? 'connect' : 'a command'} with an error${code ? ` (${code})` : ''}`);
      return;
    }
    if (name === '_result' && transaction === 1) {
      this.socket?.write(
        Buffer.concat([
          this.command('releaseStream', 2, null, this.target.stream),
          this.command('FCPublish', 3, null, this.target.stream),
          this.command('createStream', 4, null),
        ]),
      );
      return;
    }
    if (name === '_result' && transaction === 4) {
      const id = values[3];
      if (typeof id !== 'number') {
        this.fail(this.refused, 'createStream gave no stream id');
        return;
      }
      this.messageStreamId = id;
      this.socket?.write(this.command('publish', 5, null, this.target.stream, 'live'));
      return;
    }
    if (name === 'onStatus') {
      if (code === 'NetStream.Publish.Start') {
        if (this.publishingNow) return;
        this.publishingNow = true;
        this.emit('publishing');
        return;
      }
      const fields = info && typeof info === 'object' && !Array.isArray(info) && !(info instanceof Date) ? info : undefined;
      if (fields?.level !== 'error') return;
      // nginx-rtmp answers a second publisher of a name with BadName, "Already publishing" (as do
      // other servers, in their words): the address is taken, not the key wrong.
      const inUse = code === 'NetStream.Publish.BadName' && /already|in use/i.test(String(fields.description ?? ''));
      this.fail(this.publishingNow ? 'DESTINATION_LOST' : inUse ? 'DESTINATION_IN_USE' : this.refused, `the server said ${code}`);
    }
  }
}
