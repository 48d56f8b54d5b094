import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { localStreamWatchUrl, OnAirError, type LocalStream, type RtmpCallbackQuery } from '@onair/protocol';
import type { Db, Destination } from '@onair/db';
import type { Logger } from '@onair/runtime';
import { sameSecret } from '../http/same-secret.ts';
import { streamKeyDigest, type DestinationSecrets } from './destination-secrets.ts';

/** Every Local stream name starts so; the rest is 24 random url-safe characters (144 bits). */
export const LOCAL_STREAM_PREFIX = 'local_';
/** The query argument of the publish address that proves the publisher is the project's pipeline. */
export const LOCAL_PUBLISH_PROOF_ARG = 'onair';

export function newLocalStreamName(): string {
  return `${LOCAL_STREAM_PREFIX}${randomBytes(18).toString('base64url')}`;
}

export interface LocalStreamsDeps {
  db: Db;
  secrets: DestinationSecrets;
  logger: Logger;
  /** The operator's own RTMP server (LOCAL_RTMP_URL), and where readers reach it (LOCAL_RTMP_PLAY_URL); null: no Local destination. */
  server: { url: string; playUrl: string } | null;
  /** SECRETS_KEY: the publish proofs are HMACs under a key derived from it; null refuses every Local publish. */
  secretsKey: string | null;
  /** The Watch player's HLS source (LOCAL_RTMP_HLS_URL) and its delay; null: no Watch player. */
  hls: { url: string; delaySeconds: number } | null;
}

/**
 * Each Local destination's own stream on the operator's RTMP server (issue 51): an unguessable
 * name, sealed at rest like a stream key, found again at publish time by its SHA-256 (unique), and
 * rotatable. Only the project's pipeline may publish to it: the publish address the api hands the
 * worker carries an HMAC of the destination and the name (`?onair=…`, which nginx-rtmp passes on
 * to on_publish), and the server's on_publish asks `onPublish`. A name is never logged.
 */
export class LocalStreams {
  private readonly proofKey: Buffer | null;

  constructor(private readonly deps: LocalStreamsDeps) {
    this.proofKey = deps.secretsKey
      ? Buffer.from(hkdfSync('sha256', Buffer.from(deps.secretsKey, 'utf8'), Buffer.alloc(0), 'onair local stream publish proof', 32))
      : null;
  }

  /** The columns of a Local destination with this name: sealed like any stream key, plus its lookup digest. */
  columns(destinationId: string, name: string): { streamKeyEnc: string | null; streamKeyHash: string | null; localStreamHash: string } {
    return { ...this.deps.secrets.streamKeyColumns(destinationId, name), localStreamHash: streamKeyDigest(name) };
  }

  /**
   * The destination's stream name. A Local row made before names were per project (its shared key
   * dropped by the 20261207180000 migration) gets one now, on first use.
   */
  async nameOf(row: Destination): Promise<string> {
    if (row.type !== 'Local') throw new Error('not a Local destination');
    if (row.localStreamHash && row.streamKeyEnc) return this.deps.secrets.open(row.id, 'streamKey', row.streamKeyEnc);
    const name = newLocalStreamName();
    const given = await this.deps.db.destination.updateMany({ where: { id: row.id, localStreamHash: null }, data: this.columns(row.id, name) });
    if (given.count === 1) {
      this.deps.logger.info({ projectId: row.projectId, destinationId: row.id }, 'local stream named');
      return name;
    }
    // Another request named it first: that name stands.
    const current = await this.deps.db.destination.findUniqueOrThrow({ where: { id: row.id } });
    if (!current.streamKeyEnc) throw new OnAirError('INTERNAL', 'The Local stream of this destination has no name.');
    return this.deps.secrets.open(row.id, 'streamKey', current.streamKeyEnc);
  }

  /** The stream key the project's pipeline publishes with: the name and its proof. Never logged. */
  publishKey(destinationId: string, name: string): string {
    return `${name}?${LOCAL_PUBLISH_PROOF_ARG}=${this.proof(destinationId, name)}`;
  }

  private proof(destinationId: string, name: string): string {
    if (!this.proofKey) throw new OnAirError('DEPENDENCY_UNAVAILABLE', 'This server cannot stream to Local: its operator has not set SECRETS_KEY.');
    return createHmac('sha256', this.proofKey).update(`${destinationId}\n${name}`).digest('base64url');
  }

  async view(row: Destination): Promise<LocalStream> {
    return this.viewOf(row, await this.nameOf(row));
  }

  /** A new name; the old one is refused from now on. Refused while the project is live (CONFLICT). */
  async rotate(row: Destination): Promise<LocalStream> {
    if (row.type !== 'Local') throw new Error('not a Local destination');
    // The running pipeline publishes under the current name: renamed mid-show, its next reconnect
    // would be refused and the Local output would stop. Live means live, so the rename waits.
    const live = await this.deps.db.broadcast.count({ where: { projectId: row.projectId, state: { in: ['starting', 'live', 'ending'] } } });
    if (live > 0) throw new OnAirError('CONFLICT', 'This stream is live. End the broadcast, then give it a new address.', { rule: 'local-stream-live' });
    const name = newLocalStreamName();
    await this.deps.db.destination.update({ where: { id: row.id }, data: this.columns(row.id, name) });
    this.deps.logger.info({ projectId: row.projectId, destinationId: row.id }, 'local stream renamed');
    return this.viewOf(row, name);
  }

  private viewOf(row: Destination, name: string): LocalStream {
    const server = this.deps.server;
    if (!server) throw new OnAirError('DESTINATION_TYPE_UNAVAILABLE', 'Local destinations are not available on this server.');
    return {
      destinationId: row.id,
      playUrl: `${server.playUrl.replace(/\/+$/, '')}/${name}`,
      hlsUrl: this.deps.hls ? localStreamWatchUrl(row.projectId, row.id) : null,
      watchDelaySeconds: this.deps.hls ? this.deps.hls.delaySeconds : null,
    };
  }

  /**
   * The RTMP server's on_publish: a known Local stream name, published with the proof of its
   * destination. Anything else (an unknown or rotated name, another project's pipeline, a Custom
   * RTMP destination pointed at this server) is refused.
   */
  async onPublish(query: RtmpCallbackQuery): Promise<boolean> {
    const name = query.name;
    if (!name.startsWith(LOCAL_STREAM_PREFIX) || !this.proofKey) return false;
    const row = await this.deps.db.destination.findUnique({ where: { localStreamHash: streamKeyDigest(name) } });
    if (!row || row.type !== 'Local') {
      this.deps.logger.info('local stream publish refused: unknown name');
      return false;
    }
    const given = query[LOCAL_PUBLISH_PROOF_ARG];
    if (typeof given !== 'string' || !sameSecret(given, this.proof(row.id, name))) {
      this.deps.logger.info({ projectId: row.projectId, destinationId: row.id }, 'local stream publish refused: not its pipeline');
      return false;
    }
    this.deps.logger.info({ projectId: row.projectId, destinationId: row.id }, 'local stream publish accepted');
    return true;
  }
}
