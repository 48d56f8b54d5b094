import type { Redis } from 'ioredis';
import {
  canTransitionBroadcast,
  destinationKinds,
  destinationOutputSchema,
  isBroadcastActive,
  OnAirError,
  pipelineErrorCatalogue,
  streamLimitSeconds,
  type BroadcastState,
  type BroadcastView,
  type DestinationOutput,
  type PlanOutput,
  type SessionStats,
} from '@onair/protocol';
import type { Broadcast, Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import { assertOwnerPlanAllows, type CurrentUser } from '../http/auth-context.ts';
import type { RecordingService } from '../recordings/recording-service.ts';
import type { DestinationEvents } from './destination-events.ts';
import type { DestinationSecrets } from './destination-secrets.ts';
import type { LocalStreams } from './local-streams.ts';
import { isAuthenticated, type ProjectAccessCheck } from './destination-service.ts';
import type { PlatformAccounts } from './platform-accounts.ts';
import { privateAllowed, type RtmpAddressPolicy } from './rtmp-address.ts';
import type { SessionControl } from './session-control.ts';

const HEALTH_TTL_SECONDS = 30;
const healthKey = (broadcastId: string) => `onair:broadcasts:${broadcastId}:outputs`;

export interface BroadcastServiceDeps {
  db: Db;
  redis: Redis;
  logger: Logger;
  events: DestinationEvents;
  secrets: DestinationSecrets;
  accounts: PlatformAccounts;
  assertProjectAccess: ProjectAccessCheck;
  /** The session placement; without it Go Live is refused (DEPENDENCY_UNAVAILABLE), everything else works. */
  sessions: SessionControl | null;
  /** Which outputs may reach a private address; told to the worker, which checks again before each connection. */
  rtmpPolicy: RtmpAddressPolicy;
  /** A live broadcast on the holding slate (every live source dropped) this long ends (SLATE_MAX_SECONDS); 0 never. */
  slateMaxSeconds?: number;
  /** Recordings of broadcasts started with `record`. */
  recordings: RecordingService;
  /** Each Local destination's stream name and publish proof; null without a Local server. */
  localStreams?: LocalStreams | null;
}

/**
 * Go Live and End Broadcast. A broadcast row moves through the states of protocol's
 * `broadcastTransitions` only (each move is a conditional UPDATE on the state it leaves, so two
 * replicas cannot both move it), and every move is pushed to the studios of the project.
 */
export class BroadcastService {
  constructor(private readonly deps: BroadcastServiceDeps) {}

  private async latest(projectId: string): Promise<Broadcast | null> {
    return this.deps.db.broadcast.findFirst({ where: { projectId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
  }

  private async view(row: Broadcast): Promise<BroadcastView> {
    const raw = await this.deps.redis.get(healthKey(row.id));
    const outputs = raw ? destinationOutputSchema.array().safeParse(JSON.parse(raw)) : null;
    return {
      id: row.id,
      projectId: row.projectId,
      state: row.state,
      failureReason: row.failureReason,
      startedAt: row.startedAt?.toISOString() ?? null,
      endedAt: row.endedAt?.toISOString() ?? null,
      endsAt: row.endsAt?.toISOString() ?? null,
      outputs: outputs?.success ? outputs.data : [],
      recordingId: await this.deps.recordings.idOf(row.id),
    };
  }

  async current(user: CurrentUser, projectId: string): Promise<BroadcastView | null> {
    await this.deps.assertProjectAccess(user, projectId);
    const row = await this.latest(projectId);
    return row ? this.view(row) : null;
  }

  /** Moves a broadcast from `from` to `to` when it is still in `from`; false when someone else moved it first. */
  private async transition(
    row: Broadcast,
    to: BroadcastState,
    extra: { failureReason?: string; startedAt?: Date; endedAt?: Date } = {},
  ): Promise<Broadcast | null> {
    if (!canTransitionBroadcast(row.state, to)) throw new OnAirError('CONFLICT', `A ${row.state} broadcast cannot become ${to}.`);
    const moved = await this.deps.db.broadcast.updateMany({ where: { id: row.id, state: row.state }, data: { state: to, ...extra } });
    if (moved.count === 0) return null;
    const updated = await this.deps.db.broadcast.findUniqueOrThrow({ where: { id: row.id } });
    this.deps.logger.info({ projectId: row.projectId, broadcastId: row.id, from: row.state, to }, 'broadcast state');
    await this.deps.events.publish({ type: 'broadcast.state', projectId: row.projectId, broadcast: await this.view(updated) });
    return updated;
  }

  /** The outputs of every enabled, usable destination, keys opened for dispatch. Never logged. */
  async outputsOf(projectId: string): Promise<PlanOutput[]> {
    const rows = await this.deps.db.destination.findMany({ where: { projectId, enabled: true }, orderBy: { createdAt: 'asc' } });
    const outputs: PlanOutput[] = [];
    for (const row of rows) {
      if (!row.rtmpUrl || !isAuthenticated(row)) continue;
      // A Local stream is published with its name and the proof that this is its project's pipeline.
      const local = row.type === 'Local' ? this.deps.localStreams : null;
      const key = local
        ? local.publishKey(row.id, await local.nameOf(row))
        : row.streamKeyEnc
          ? this.deps.secrets.open(row.id, 'streamKey', row.streamKeyEnc)
          : undefined;
      outputs.push({
        id: row.id,
        url: row.rtmpUrl,
        ...(key === undefined ? {} : { key }),
        allowPrivate: privateAllowed(row.rtmpUrl, this.deps.rtmpPolicy),
        canvas: row.canvas,
        // Only a stream-key destination's key was typed by the creator.
        keySetByOnAir: destinationKinds[row.type].connection !== 'stream-key',
      });
    }
    return outputs;
  }

  async goLive(
    user: CurrentUser,
    projectId: string,
    options: { record?: boolean; preRollSeconds?: number; postRollSeconds?: number } = {},
  ): Promise<BroadcastView> {
    await this.deps.assertProjectAccess(user, projectId);
    // An operator suspends the studio or going live through the plan, before anything starts; Auto Live and scheduled starts come through here too.
    await assertOwnerPlanAllows(this.deps.db, projectId, 'can-use-product', user);
    await assertOwnerPlanAllows(this.deps.db, projectId, 'can-go-live', user);
    const sessions = this.deps.sessions;
    if (!sessions) throw new OnAirError('DEPENDENCY_UNAVAILABLE', 'Going live is not available: this server runs no studio sessions.');
    const previous = await this.latest(projectId);
    if (previous && isBroadcastActive(previous.state)) throw new OnAirError('CONFLICT', 'This project is already live.');
    const enabled = await this.deps.db.destination.count({ where: { projectId, enabled: true } });
    if (enabled === 0) throw new OnAirError('VALIDATION_FAILED', 'Switch on at least one destination to go live.');
    // Refused before anything starts: a plan without recording does not go live unrecorded by surprise.
    const retentionDays = options.record ? await this.deps.recordings.allowed(projectId) : null;

    const row = await this.deps.db.broadcast.create({ data: { projectId, state: 'idle', endsAt: null, postRollSeconds: options.postRollSeconds ?? 0 } });
    const recordingId = retentionDays === null ? null : await this.deps.recordings.begin(projectId, row.id, retentionDays);
    let current = (await this.transition(row, 'starting'))!;
    try {
      const prepared = await this.deps.accounts.prepareBroadcasts(user, projectId);
      const failedPlatforms = new Set(prepared.filter((p) => !p.ok).map((p) => p.destinationId));
      const outputs = (await this.outputsOf(projectId)).filter((o) => !failedPlatforms.has(o.id));
      if (outputs.length === 0) {
        const reason = prepared.find((p) => !p.ok)?.error ?? 'No enabled destination can receive the stream.';
        await this.transition(current, 'failed', { failureReason: reason, endedAt: new Date() });
        throw new OnAirError('VALIDATION_FAILED', reason);
      }
      await sessions.startBroadcast(projectId, outputs, recordingId);
      // With a pre-roll the outputs run from now, and the broadcast counts as live when it is over (settlePadding).
      const startedAt = new Date(Date.now() + (options.preRollSeconds ?? 0) * 1000);
      const endsAt = new Date(startedAt.getTime() + streamLimitSeconds(user.plan) * 1000);
      await this.deps.db.broadcast.update({ where: { id: current.id }, data: { endsAt, ...(options.preRollSeconds ? { liveAt: startedAt } : {}) } });
      current = { ...current, endsAt };
      if (options.preRollSeconds) return this.view(await this.deps.db.broadcast.findUniqueOrThrow({ where: { id: current.id } }));
      const live = await this.transition(current, 'live', { startedAt });
      return this.view(live ?? (await this.deps.db.broadcast.findUniqueOrThrow({ where: { id: current.id } })));
    } catch (err) {
      const fresh = await this.deps.db.broadcast.findUniqueOrThrow({ where: { id: current.id } });
      if (canTransitionBroadcast(fresh.state, 'failed')) {
        const reason = err instanceof OnAirError ? err.message : 'The broadcast could not start.';
        await this.transition(fresh, 'failed', { failureReason: reason, endedAt: new Date() });
      }
      await this.deps.recordings.finish(current.id);
      throw err;
    }
  }

  /**
   * Auto Live: the project goes live as its owner's Go Live would (their plan's limits and
   * destinations), with no click. Null when it is live already (a feed that came back within the
   * grace period keeps the same broadcast).
   */
  async goLiveAsOwner(owner: CurrentUser, projectId: string): Promise<BroadcastView | null> {
    const previous = await this.latest(projectId);
    if (previous && isBroadcastActive(previous.state)) return null;
    return this.goLive(owner, projectId);
  }

  /** Auto Live: the feed stayed away past its grace period. Null when the project was not live. */
  async endWithoutFeed(projectId: string): Promise<BroadcastView | null> {
    const row = await this.latest(projectId);
    if (!row || !isBroadcastActive(row.state)) return null;
    this.deps.logger.info({ projectId, broadcastId: row.id }, 'auto live: the feed stayed away past the grace period, ending the broadcast');
    return this.endRow(row);
  }

  /** A scheduled video has played: its broadcast ends (as End Broadcast, with its post-roll). Null when it ended already. */
  async endById(broadcastId: string): Promise<BroadcastView | null> {
    const row = await this.deps.db.broadcast.findUnique({ where: { id: broadcastId } });
    if (!row || !isBroadcastActive(row.state)) return null;
    return this.endRow(row, { postRoll: true });
  }

  async end(user: CurrentUser, projectId: string): Promise<BroadcastView> {
    await this.deps.assertProjectAccess(user, projectId);
    const row = await this.latest(projectId);
    if (!row || !isBroadcastActive(row.state)) throw new OnAirError('CONFLICT', 'This project is not live.');
    return this.endRow(row, { postRoll: true });
  }

  /**
   * Padding, on the broadcast watch's timer: a broadcast whose pre-roll is over counts as live, and
   * one whose post-roll is over stops its outputs. Each move is a conditional update, so of several
   * replicas one acts.
   */
  async settlePadding(now = new Date()): Promise<number> {
    let moved = 0;
    const starting = await this.deps.db.broadcast.findMany({ where: { state: 'starting', liveAt: { lte: now } } });
    for (const row of starting) if (await this.transition(row, 'live', { startedAt: row.liveAt! })) moved++;
    const ending = await this.deps.db.broadcast.findMany({ where: { state: 'ending', stopAt: { lte: now } } });
    for (const row of ending) {
      const claimed = await this.deps.db.broadcast.updateMany({ where: { id: row.id, state: 'ending', stopAt: row.stopAt }, data: { stopAt: null } });
      if (claimed.count === 0) continue;
      await this.stopRow({ ...row, stopAt: null });
      moved++;
    }
    return moved;
  }

  private async endRow(row: Broadcast, options: { postRoll?: boolean } = {}): Promise<BroadcastView> {
    const ending = row.state === 'ending' ? row : await this.transition(row, 'ending');
    if (!ending) return this.view(await this.deps.db.broadcast.findUniqueOrThrow({ where: { id: row.id } }));
    // Post-roll: the outputs keep running; settlePadding stops them when it is over.
    if (options.postRoll && ending.postRollSeconds > 0 && row.state !== 'ending') {
      const stopAt = new Date(Date.now() + ending.postRollSeconds * 1000);
      await this.deps.db.broadcast.update({ where: { id: ending.id }, data: { stopAt } });
      return this.view({ ...ending, stopAt });
    }
    return this.stopRow(ending);
  }

  private async stopRow(ending: Broadcast): Promise<BroadcastView> {
    const row = ending;
    try {
      await this.deps.sessions?.stopBroadcast(row.projectId);
    } catch (err) {
      this.deps.logger.error({ err: (err as Error).message, projectId: row.projectId, broadcastId: row.id }, 'stopping the broadcast failed');
      const failed = await this.transition(ending, 'failed', { failureReason: 'The broadcast could not be stopped cleanly.', endedAt: new Date() });
      await this.deps.recordings.finish(row.id);
      return this.view(failed ?? ending);
    }
    await this.deps.recordings.finish(row.id);
    const ended = await this.transition(ending, 'ended', { endedAt: new Date() });
    return this.view(ended ?? ending);
  }

  /** Ends every broadcast of an owner's projects that is going out (a deleted account's platform connections stop). */
  async endAllOwnedBy(ownerId: string): Promise<number> {
    const active = await this.deps.db.broadcast.findMany({ where: { project: { ownerId }, state: { in: ['starting', 'live', 'ending'] } } });
    for (const row of active) await this.endRow(row);
    return active.length;
  }

  /** Ends every live broadcast past its plan's duration limit; the api calls this on a timer. */
  async endExpired(now = new Date()): Promise<number> {
    const due = await this.deps.db.broadcast.findMany({ where: { state: 'live', endsAt: { lte: now } } });
    for (const row of due) await this.endRow(row);
    return due.length;
  }

  /** A destination was toggled, added or removed: a live broadcast gets the new output set; the others are untouched. */
  async syncOutputs(projectId: string): Promise<void> {
    const row = await this.latest(projectId);
    if (!row || row.state !== 'live' || !this.deps.sessions) return;
    await this.deps.sessions.setOutputs(projectId, await this.outputsOf(projectId));
  }

  /**
   * The session's stats as its worker publishes them: per-destination health for the studios
   * (status light, bitrate, reconnect count), kept briefly for a studio that opens mid-broadcast.
   */
  async onSessionStats(projectId: string, stats: SessionStats): Promise<void> {
    const row = await this.latest(projectId);
    if (!row || !isBroadcastActive(row.state)) return;
    const known = new Set((await this.deps.db.destination.findMany({ where: { projectId }, select: { id: true } })).map((d) => d.id));
    const outputs: DestinationOutput[] = stats.outputs
      .filter((o) => known.has(o.id))
      .map((o) => ({
        destinationId: o.id,
        state: o.state,
        bitrateKbps: o.bitrateKbps,
        reconnects: o.reconnects,
        ...(o.errorCode ? { errorCode: o.errorCode, reason: pipelineErrorCatalogue[o.errorCode].message } : {}),
      }));
    await this.deps.redis.set(healthKey(row.id), JSON.stringify(outputs), 'EX', HEALTH_TTL_SECONDS);
    await this.deps.events.publish({
      type: 'broadcast.health',
      projectId,
      broadcastId: row.id,
      at: stats.at,
      outputs,
      ...(stats.encoder ? { encoder: stats.encoder } : {}),
    });
    // Every destination gave up (each output retries by itself before it fails): nothing goes out
    // any more, so the broadcast has failed, and says why, instead of showing live forever.
    if (row.state === 'live' && outputs.length > 0 && outputs.every((o) => o.state === 'failed')) {
      await this.failLive(row, outputs);
      return;
    }
    // Nobody came back to a broadcast held on the slate: it ends as End Broadcast ends it, cleanly.
    const limit = this.deps.slateMaxSeconds ?? 0;
    if (row.state === 'live' && limit > 0 && stats.slateSince && Date.parse(stats.at) - Date.parse(stats.slateSince) >= limit * 1000) {
      this.deps.logger.info({ projectId, broadcastId: row.id, slateSince: stats.slateSince }, 'broadcast ended: on the holding slate past its limit');
      await this.endRow(row);
    }
  }

  private async failLive(row: Broadcast, outputs: DestinationOutput[]): Promise<void> {
    const reasons = [...new Set(outputs.map((o) => o.reason ?? 'The destination stopped taking the stream.'))];
    const failed = await this.transition(row, 'failed', { failureReason: `Every destination failed. ${reasons.join(' ')}`, endedAt: new Date() });
    if (!failed) return;
    await this.deps.recordings.finish(row.id);
    this.deps.logger.warn({ projectId: row.projectId, broadcastId: row.id, outputs: outputs.length }, 'broadcast failed: every destination failed');
    await this.deps.sessions?.stopBroadcast(row.projectId).catch((err: unknown) => {
      this.deps.logger.error({ err: (err as Error).message, projectId: row.projectId, broadcastId: row.id }, 'stopping the failed broadcast failed');
    });
  }
}
