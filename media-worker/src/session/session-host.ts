import type { Redis } from 'ioredis';
import { Gauge, type Registry } from 'prom-client';
import {
  encoderLadder,
  pipelineStartConfigSchema,
  sessionKeys,
  sessionStatusKeys,
  SESSION_DOCUMENT_TTL_MS,
  type PipelineReport,
  type PipelineStartConfigInput,
  type PlanOutput,
  type RenderPlan,
  type SessionStats,
} from '@onair/protocol';
import type { Logger, WorkerLoad } from '@onair/runtime';
import { RtmpEgress } from '../pipeline/outputs/rtmp-egress.ts';
import type { GovernedSession } from './encoder-governor.ts';
import { SparePipeline } from './pipeline-processes.ts';
import { SessionOutputs, withOutputs } from './session-outputs.ts';
import { SessionSupervisor, type SessionSupervisorOptions } from './session-supervisor.ts';

/** Latest stats stay readable this long after the last report, then vanish with their session. */
const STATS_TTL_MS = 5000;
/** A pipeline that has played this long has filled its buffers: its frame rate and cost mean something to the governor. */
export const GOVERNOR_SETTLE_MS = 10_000;

export interface SessionHostOptions {
  logger: Logger;
  redis: Redis;
  metrics: Registry;
  /** Passed to every supervisor (tests shorten restart delays, capture child log lines). */
  supervisor?: Partial<Omit<SessionSupervisorOptions, 'config' | 'logger' | 'onReport'>>;
  /** Every report of every session, after the host handled it. */
  onReport?: (sessionId: string, report: PipelineReport) => void;
  /** Keep a pipeline process started ahead of need (the worker with PIPELINE_SPARE=true; pipeline-processes.ts). */
  spare?: boolean;
}

/**
 * The sessions of one media worker: one supervised pipeline process each, and each session's
 * destinations (their RTMP connections, session-outputs.ts), which live here and outlive its
 * pipeline processes (issue 54). It turns their reports into Prometheus figures, publishes them in
 * Redis for the api, and sums them for the heartbeat.
 */
export class SessionHost {
  private readonly sessions = new Map<string, SessionSupervisor>();
  /** Each session's destinations, once their fan-outs listen. */
  private readonly outputs = new Map<string, SessionOutputs>();
  /** Sessions whose destinations connect: from their pipeline's first 'playing' on. */
  private readonly outputsStarted = new Set<string>();
  private readonly spare: SparePipeline | undefined;
  /** Output ids seen per session, to remove their series when the session ends. */
  private readonly seenOutputs = new Map<string, Set<string>>();
  private readonly gauges: {
    fps: Gauge;
    dropped: Gauge;
    restarts: Gauge;
    outputBytes: Gauge;
    outputBitrate: Gauge;
    outputReconnects: Gauge;
    outputLive: Gauge;
  };

  constructor(private readonly options: SessionHostOptions) {
    this.spare = options.spare ? new SparePipeline(options.logger) : undefined;
    const registers = [options.metrics];
    const session = ['session'];
    const output = ['session', 'output'];
    this.gauges = {
      fps: new Gauge({ name: 'onair_media_session_fps', help: 'Program frames per second', labelNames: session, registers }),
      dropped: new Gauge({
        name: 'onair_media_session_dropped_frames',
        help: 'Program frames dropped or repeated since the pipeline started',
        labelNames: session,
        registers,
      }),
      restarts: new Gauge({
        name: 'onair_media_session_pipeline_restarts',
        help: 'Pipeline process crashes in the crash window',
        labelNames: session,
        registers,
      }),
      outputBytes: new Gauge({ name: 'onair_media_output_bytes_sent', help: 'Bytes sent to a destination', labelNames: output, registers }),
      outputBitrate: new Gauge({ name: 'onair_media_output_bitrate_kbps', help: 'Send rate to a destination', labelNames: output, registers }),
      outputReconnects: new Gauge({ name: 'onair_media_output_reconnects', help: 'Reconnections of a destination output', labelNames: output, registers }),
      outputLive: new Gauge({ name: 'onair_media_output_live', help: '1 while a destination receives the stream', labelNames: output, registers }),
    };
  }

  get size(): number {
    return this.sessions.size;
  }

  session(sessionId: string): SessionSupervisor | undefined {
    return this.sessions.get(sessionId);
  }

  startSession(input: PipelineStartConfigInput): SessionSupervisor {
    const config = pipelineStartConfigSchema.parse(input);
    if (this.sessions.has(config.sessionId)) throw new Error(`session ${config.sessionId} already runs here`);
    const sessionId = config.sessionId;
    const supervisor = new SessionSupervisor({
      ...this.options.supervisor,
      ...(this.spare ? { spawn: () => this.spare!.take() } : {}),
      config,
      logger: this.options.logger,
      onReport: (id, report) => this.onReport(id, report),
      amendStats: (stats) => {
        const outputs = this.outputs.get(sessionId);
        return outputs ? withOutputs(stats, outputs.stats()) : stats;
      },
    });
    this.sessions.set(sessionId, supervisor);
    // The destinations' fan-outs listen first: the pipeline process is told where to send its FLV.
    const logger = this.options.logger.child({ sessionId });
    SessionOutputs.open(
      config.plan.profile,
      config.outputPolicy,
      new RtmpEgress(),
      logger,
      (report) => this.onReport(sessionId, report),
      (canvas) => this.sessions.get(sessionId)?.requestKeyframe(canvas),
    ).then(
      (outputs) => {
        if (this.sessions.get(sessionId) !== supervisor || supervisor.current !== 'starting') {
          outputs.close();
          return;
        }
        this.outputs.set(sessionId, outputs);
        supervisor.setOutputPorts(outputs.ports);
        supervisor.start();
      },
      (err: unknown) => {
        logger.error({ err }, 'session outputs could not listen');
        this.onReport(sessionId, { type: 'error', code: 'PIPELINE_FAILED', message: 'outputs could not start', fatal: true });
      },
    );
    return supervisor;
  }

  applyPlan(sessionId: string, version: number, plan: RenderPlan): void {
    this.sessions.get(sessionId)?.applyPlan(version, plan);
    this.setDestinations(sessionId);
  }

  /** The plan of the applied version, planned again because who is in the session changed. */
  replan(sessionId: string, plan: RenderPlan): void {
    this.sessions.get(sessionId)?.replan(plan);
    this.setDestinations(sessionId);
  }

  /** The session's destinations made those of its current plan (once they connect at all). */
  private setDestinations(sessionId: string): void {
    const supervisor = this.sessions.get(sessionId);
    if (supervisor && this.outputsStarted.has(sessionId)) this.outputs.get(sessionId)?.set(supervisor.plan);
  }

  /** Stream time (ms) each gap of a session's horizontal stream held while no pipeline fed it. */
  gapsFilled(sessionId: string): readonly number[] {
    return this.outputs.get(sessionId)?.gapsFilled ?? [];
  }

  /** The jitter buffer latency the session's WebRTC senders need (WebrtcEndpoint measures it). */
  setJitterLatency(sessionId: string, ms: number): void {
    this.sessions.get(sessionId)?.setJitterLatency(ms);
  }

  setOutputs(sessionId: string, outputs: PlanOutput[]): void {
    this.sessions.get(sessionId)?.setOutputs(outputs);
    this.setDestinations(sessionId);
  }

  setRecording(sessionId: string, recording: RenderPlan['recording']): void {
    this.sessions.get(sessionId)?.setRecording(recording);
  }

  setChatOnScreen(sessionId: string, message: RenderPlan['chatOnScreen'] | null): void {
    this.sessions.get(sessionId)?.setChatOnScreen(message);
  }

  async stopSession(sessionId: string): Promise<void> {
    const supervisor = this.sessions.get(sessionId);
    if (!supervisor) return;
    // The connections close first: a session stopped here (or lost to another worker, whose
    // takeover must not meet a second publisher) stops publishing at once.
    this.closeOutputs(sessionId);
    await supervisor.stop();
    this.sessions.delete(sessionId);
    this.forget(sessionId);
    await this.options.redis.del(sessionStatusKeys.stats(sessionId), sessionKeys.chatOnAir(sessionId));
  }

  /** Stops every session; the worker is going, so the spare pipeline process goes too. */
  async stopAll(): Promise<void> {
    this.spare?.close();
    await Promise.all([...this.sessions.keys()].map((id) => this.stopSession(id)));
  }

  /** The pid of a session's pipeline process, while it has one. */
  pidOf(sessionId: string): number | undefined {
    return this.sessions.get(sessionId)?.pid;
  }

  /** The spare pipeline process's pid, while there is one. */
  get sparePid(): number | undefined {
    return this.spare?.pid;
  }

  /**
   * The sessions as the encoder governor sees them: every one that has not ended (a session whose
   * pipeline restarts stays, unsettled), settled once its pipeline has played GOVERNOR_SETTLE_MS.
   */
  governed(): GovernedSession[] {
    return [...this.sessions.values()]
      .filter((s) => s.current === 'running' || s.current === 'starting' || s.current === 'restarting')
      .map((s) => ({
        sessionId: s.sessionId,
        step: s.encoderStep,
        steps: encoderLadder(s.profile).length,
        pixels: s.profile.width * s.profile.height,
        fps: s.stats?.state === 'playing' ? s.stats.fps : undefined,
        targetFps: s.profile.fps,
        settled: (s.playingForMs ?? 0) >= GOVERNOR_SETTLE_MS,
        setStep: (step: number) => s.setEncoderStep(step),
      }));
  }

  /** The heartbeat's figures: totals over sessions, and the slowest session's frame rate. */
  load(): WorkerLoad {
    const stats = [...this.sessions.values()].map((s) => s.stats).filter((s): s is SessionStats => s !== undefined);
    return {
      sessions: this.sessions.size,
      outputs: stats.reduce((n, s) => n + s.outputs.filter((o) => o.state === 'live').length, 0),
      pages: 0,
      bitrateKbps: stats.reduce((n, s) => n + s.bitrateKbps, 0),
      fps: stats.length ? Math.min(...stats.map((s) => s.fps)) : 0,
      droppedFrames: stats.reduce((n, s) => n + s.droppedFrames, 0),
    };
  }

  private closeOutputs(sessionId: string): void {
    this.outputs.get(sessionId)?.close();
    this.outputs.delete(sessionId);
    this.outputsStarted.delete(sessionId);
  }

  private onReport(sessionId: string, report: PipelineReport): void {
    const supervisor = this.sessions.get(sessionId);
    if (report.type === 'state' && report.state === 'playing' && supervisor && !this.outputsStarted.has(sessionId) && this.outputs.has(sessionId)) {
      // The first pipeline plays: its destinations connect now and meet a keyframe at once.
      this.outputsStarted.add(sessionId);
      this.setDestinations(sessionId);
    }
    // The supervisor gave the session up (its pipeline keeps crashing): nothing is published any more.
    if (report.type === 'state' && report.state === 'failed' && supervisor?.current === 'failed') this.closeOutputs(sessionId);
    // Between the pipeline and this worker's WebRTC endpoint only: nothing for the api.
    if (report.type === 'keyframeWanted') {
      this.options.onReport?.(sessionId, report);
      return;
    }
    if (report.type === 'stats') this.record(report.stats);
    if (report.type === 'error') this.gauges.restarts.set({ session: sessionId }, this.sessions.get(sessionId)?.restarts ?? 0);
    const json = JSON.stringify({ sessionId, ...report });
    const { redis, logger } = this.options;
    const writes: Promise<unknown>[] = [redis.publish(sessionStatusKeys.channel(sessionId), json)];
    if (report.type === 'stats') writes.push(redis.set(sessionStatusKeys.stats(sessionId), JSON.stringify(report.stats), 'PX', STATS_TTL_MS));
    // What is on air of chat on screen, for a studio that opens (or reloads) after this report.
    if (report.type === 'chatOnScreenApplied')
      writes.push(redis.set(sessionKeys.chatOnAir(sessionId), JSON.stringify(report.onAir), 'PX', SESSION_DOCUMENT_TTL_MS));
    Promise.all(writes).catch((err: unknown) => logger.warn({ err, sessionId }, 'session status not published'));
    this.options.onReport?.(sessionId, report);
  }

  private record(stats: SessionStats): void {
    const session = stats.sessionId;
    this.gauges.fps.set({ session }, stats.fps);
    this.gauges.dropped.set({ session }, stats.droppedFrames);
    const seen = this.seenOutputs.get(session) ?? new Set<string>();
    this.seenOutputs.set(session, seen);
    for (const output of stats.outputs) {
      seen.add(output.id);
      const labels = { session, output: output.id };
      this.gauges.outputBytes.set(labels, output.bytesSent);
      this.gauges.outputBitrate.set(labels, output.bitrateKbps);
      this.gauges.outputReconnects.set(labels, output.reconnects);
      this.gauges.outputLive.set(labels, output.state === 'live' ? 1 : 0);
    }
  }

  private forget(session: string): void {
    for (const gauge of [this.gauges.fps, this.gauges.dropped, this.gauges.restarts]) gauge.remove({ session });
    for (const output of this.seenOutputs.get(session) ?? []) {
      for (const gauge of [this.gauges.outputBytes, this.gauges.outputBitrate, this.gauges.outputReconnects, this.gauges.outputLive])
        gauge.remove({ session, output });
    }
    this.seenOutputs.delete(session);
  }
}
