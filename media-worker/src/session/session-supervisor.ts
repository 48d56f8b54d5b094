import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import {
  pipelineReportSchema,
  type PipelineCommand,
  type PipelineReport,
  type PipelineStartConfig,
  type PlanOutput,
  type RenderPlan,
  type SessionStats,
} from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { planNeedsNewProcess } from '../pipeline/layout.ts';
import { forkPipeline } from './pipeline-processes.ts';

export type SupervisorState = 'starting' | 'running' | 'restarting' | 'stopping' | 'stopped' | 'failed';

export interface SessionSupervisorOptions {
  config: PipelineStartConfig;
  logger: Logger;
  /** Every report of the pipeline process, plus the supervisor's own PIPELINE_CRASHED errors. */
  onReport: (sessionId: string, report: PipelineReport) => void;
  /** Log lines of the child (pino JSON); to the worker's stdout by default. */
  onLogLine?: (line: string) => void;
  restartDelaysMs?: number[];
  /** Crashes within `crashWindowMs` after which the session is given up as failed. */
  maxCrashes?: number;
  crashWindowMs?: number;
  stopTimeoutMs?: number;
  /** A child that has not reported `playing` by then is killed and counted as a crash. */
  startTimeoutMs?: number;
  /** Where a pipeline process comes from (a spare started ahead, pipeline-processes.ts); a new fork by default. */
  spawn?: () => ChildProcess;
  /** The pipeline's stats with what the worker adds (its destinations' figures, session-outputs.ts). */
  amendStats?: (stats: SessionStats) => SessionStats;
}

/**
 * Owns one session's pipeline process: starts it, tells it every plan and output change, and when
 * it dies on its own reports the crash and starts a new one from the latest plan. Nothing here is
 * shared with other sessions, so one crashing pipeline leaves the others alone.
 */
export class SessionSupervisor {
  private child: ChildProcess | undefined;
  private state: SupervisorState = 'starting';
  private runningSince: number | undefined;
  private config: PipelineStartConfig;
  private crashes: number[] = [];
  private restartTimer: NodeJS.Timeout | undefined;
  /** The replacement of the pipeline process under way (replaceChild), if any. */
  private replacing: Promise<void> | undefined;
  private startTimer: NodeJS.Timeout | undefined;
  private latestStats: SessionStats | undefined;
  /** The last state the current pipeline process reported for each output. */
  private readonly outputStates = new Map<string, string>();
  private exited: Promise<void> = Promise.resolve();
  private readonly logger: Logger;

  constructor(private readonly options: SessionSupervisorOptions) {
    this.config = options.config;
    this.logger = options.logger.child({ sessionId: options.config.sessionId });
  }

  get sessionId(): string {
    return this.config.sessionId;
  }

  get current(): SupervisorState {
    return this.state;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get stats(): SessionStats | undefined {
    return this.latestStats;
  }

  /** How long the current pipeline process has played (undefined while none plays). */
  get playingForMs(): number | undefined {
    return this.state === 'running' && this.runningSince !== undefined ? Date.now() - this.runningSince : undefined;
  }

  get restarts(): number {
    return this.crashes.length;
  }

  /** Where the pipeline processes of this session send each canvas's FLV (the worker's fan-outs). */
  setOutputPorts(ports: NonNullable<PipelineStartConfig['outputPorts']>): void {
    this.config = { ...this.config, outputPorts: ports };
  }

  /** The plan the session runs now (the newest applied, with its outputs and recording). */
  get plan(): RenderPlan {
    return this.config.plan;
  }

  /** A destination of this canvas connected: the pipeline's encoder makes a keyframe. */
  requestKeyframe(canvas: 'horizontal' | 'vertical'): void {
    this.send({ type: 'keyframe', canvas });
  }

  /**
   * Starts a pipeline process. The destinations' connections are the worker's (session-outputs.ts):
   * one that replaces another (a rebuild, a crash restart) carries on the same connections.
   */
  start(continuingOutputs: string[] = []): void {
    this.outputStates.clear();
    this.config = { ...this.config, continuingOutputs };
    const child = (this.options.spawn ?? forkPipeline)();
    this.child = child;
    const logLine = this.options.onLogLine ?? ((line: string) => process.stdout.write(`${line}\n`));
    if (child.stdout) createInterface({ input: child.stdout }).on('line', logLine);
    if (child.stderr) createInterface({ input: child.stderr }).on('line', logLine);
    child.on('message', (raw: unknown) => this.onMessage(raw));
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        resolve();
        this.onExit(child, code, signal);
      }),
    );
    this.send({ type: 'start', config: this.config });
    // Seen here under heavy load: a child stuck for good while loading its modules (tsx loader,
    // main thread in Atomics.wait). It never plays and never exits, so it is killed and replaced.
    if (this.startTimer) clearTimeout(this.startTimer);
    this.startTimer = setTimeout(() => {
      if (this.child === child && this.state === 'starting') {
        this.logger.error({ pid: child.pid }, 'pipeline process did not start in time: killing it');
        child.kill('SIGKILL');
      }
    }, this.options.startTimeoutMs ?? 30_000);
    this.logger.info({ pid: child.pid }, 'pipeline process started');
  }

  /** A new plan version: applied live (inputs join and leave the running pipeline), or by a new pipeline process when the output profile changed. */
  applyPlan(version: number, plan: RenderPlan): void {
    const rebuild = planNeedsNewProcess(this.config.plan, plan);
    // A new profile is a new ladder: it starts as planned (the governor steps it down again if need be).
    const newProfile = JSON.stringify(plan.profile) !== JSON.stringify(this.config.plan.profile);
    this.config = { ...this.config, plan, planVersion: version, ...(newProfile ? { encoderStep: 0 } : {}) };
    if (rebuild) {
      this.logger.info(
        { version, activeSceneId: plan.activeSceneId, inputs: plan.inputs.map((i) => `${i.id.slice(0, 8)}:${i.kind}`) },
        'plan changes the output profile: a new pipeline process',
      );
      void this.replaceChild();
      return;
    }
    this.send({ type: 'applyPlan', version, plan });
  }

  /** Who is in the session changed: the same version planned again (a restarted pipeline starts from it). */
  replan(plan: RenderPlan): void {
    this.config = { ...this.config, plan };
    this.send({ type: 'presence', plan });
  }

  /** Where the session's encoder is on its ladder (0 = as planned). */
  get encoderStep(): number {
    return this.config.encoderStep;
  }

  get profile(): RenderPlan['profile'] {
    return this.config.plan.profile;
  }

  /** Re-sets the live encoder (cheaper at a higher step); a restarted pipeline starts at this step. */
  setEncoderStep(step: number): void {
    if (step === this.config.encoderStep) return;
    this.config = { ...this.config, encoderStep: step };
    this.send({ type: 'encoderStep', step });
  }

  /** Re-sets the WebRTC inputs' jitter buffers live; a restarted pipeline starts with this latency. */
  setJitterLatency(ms: number): void {
    if (ms === this.config.jitterLatencyMs) return;
    this.config = { ...this.config, jitterLatencyMs: ms };
    this.send({ type: 'jitterLatency', ms });
  }

  /** Destinations come and go in the running pipeline (the vertical canvas with the first and last vertical one). */
  setOutputs(outputs: PlanOutput[]): void {
    this.config = { ...this.config, plan: { ...this.config.plan, outputs } };
    this.send({ type: 'setOutputs', outputs });
  }

  /** Starts (a new part) or stops the recording; a restarted pipeline process records on as the next part. */
  setRecording(recording: RenderPlan['recording']): void {
    const { recording: _previous, ...rest } = this.config.plan;
    this.config = { ...this.config, plan: recording ? { ...rest, recording } : rest };
    this.send({ type: 'setRecording', recording: recording ?? null });
  }

  /** Draws the chat message on screen over the program (null: none) at once; a restarted pipeline draws it from its plan. */
  setChatOnScreen(message: RenderPlan['chatOnScreen'] | null): void {
    const { chatOnScreen: _previous, ...rest } = this.config.plan;
    this.config = { ...this.config, plan: message ? { ...rest, chatOnScreen: message } : rest };
    this.send({ type: 'chatOnScreen', chatOnScreen: message ?? null });
  }

  async stop(): Promise<void> {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    if (this.startTimer) clearTimeout(this.startTimer);
    this.restartTimer = undefined;
    this.startTimer = undefined;
    if (this.state === 'stopped' || this.state === 'failed') return;
    this.state = 'stopping';
    await this.stopChild();
    this.state = 'stopped';
  }

  private async stopChild(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    if (child.connected) child.send({ type: 'stop' } satisfies PipelineCommand);
    else child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), this.options.stopTimeoutMs ?? 10_000);
    await this.exited;
    clearTimeout(timer);
  }

  /**
   * Stops the pipeline process and starts a new one from the newest config. Plans that both need a
   * rebuild can arrive while the old process is still stopping (a screen added in one patch, the
   * studio's next patch 200 ms later): they share that one replacement, which starts from the
   * newest config. Two replacements at once used to start two processes, the second refused by the
   * RTMP server the first already published to, and the orphan was no longer supervised.
   */
  private replaceChild(): Promise<void> {
    this.replacing ??= (async () => {
      try {
        const previous = this.state;
        this.state = 'restarting';
        // Before the old process stops them (its outputs then report 'stopped').
        const continuing = this.connectedOutputs();
        await this.stopChild();
        if (previous === 'stopping' || previous === 'stopped' || this.stopRequested()) return;
        this.state = 'starting';
        this.start(continuing);
      } finally {
        this.replacing = undefined;
      }
    })();
    return this.replacing;
  }

  /** Outputs the current process last reported connected (live, or reconnecting after being live). */
  private connectedOutputs(): string[] {
    return [...this.outputStates].filter(([, state]) => state === 'live' || state === 'reconnecting').map(([id]) => id);
  }

  /** stop() was called (while a replacement waited for the old process, say). */
  private stopRequested(): boolean {
    return this.state === 'stopping' || this.state === 'stopped';
  }

  /**
   * To the current pipeline process. Nothing goes to one that is being stopped or replaced: every
   * change is in `config` already, which the replacing process starts from.
   */
  private send(command: PipelineCommand): void {
    if (this.state === 'restarting' || this.state === 'stopping') return;
    if (this.child?.connected) this.child.send(command);
  }

  private onMessage(raw: unknown): void {
    const parsed = pipelineReportSchema.safeParse(raw);
    if (!parsed.success) {
      this.logger.warn('pipeline sent an invalid report');
      return;
    }
    const report =
      parsed.data.type === 'stats' && this.options.amendStats ? { ...parsed.data, stats: this.options.amendStats(parsed.data.stats) } : parsed.data;
    if (report.type === 'state' && report.state === 'playing' && this.state === 'starting') {
      this.state = 'running';
      this.runningSince = Date.now();
      if (this.startTimer) clearTimeout(this.startTimer);
      this.startTimer = undefined;
    }
    if (report.type === 'stats') this.latestStats = report.stats;
    if (report.type === 'outputStatus') this.outputStates.set(report.outputId, report.state);
    this.options.onReport(this.sessionId, report);
  }

  private onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (child !== this.child) return;
    if (this.state === 'stopping' || this.state === 'stopped' || this.state === 'restarting') return;
    const now = Date.now();
    const window = this.options.crashWindowMs ?? 300_000;
    this.crashes = [...this.crashes.filter((t) => now - t < window), now];
    this.latestStats = undefined;
    const maxCrashes = this.options.maxCrashes ?? 5;
    const fatal = this.crashes.length > maxCrashes;
    this.logger.error(
      { code, signal, crashes: this.crashes.length },
      fatal ? 'pipeline process keeps crashing: giving up' : 'pipeline process crashed: restarting',
    );
    this.options.onReport(this.sessionId, {
      type: 'error',
      code: 'PIPELINE_CRASHED',
      message: `pipeline process exited (code ${code}, signal ${signal})`,
      fatal,
    });
    if (fatal) {
      this.state = 'failed';
      this.options.onReport(this.sessionId, { type: 'state', state: 'failed' });
      return;
    }
    this.state = 'restarting';
    const continuing = this.connectedOutputs();
    const delays = this.options.restartDelaysMs ?? [500, 2000, 5000];
    const delay = delays[Math.min(this.crashes.length - 1, delays.length - 1)] ?? 5000;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.state !== 'restarting') return;
      this.state = 'starting';
      this.start(continuing);
    }, delay);
  }
}
