/**
 * One studio session's pipeline, in its own OS process (run with `node --import tsx`), so a
 * crash in GStreamer or in a native binding takes down this broadcast only. It is driven by its
 * media worker over the Node IPC channel with the typed messages of `@onair/protocol`.
 */
import { PIPELINE_ORPHAN_EXIT_MS, pipelineCommandSchema, type PipelineCommand, type PipelineErrorCode, type PipelineReport } from '@onair/protocol';
import { createLogger, ExitGuard } from '@onair/runtime';
import { loadGst } from './gst/gst.ts';
import { ProgramPipeline } from './pipeline/program.ts';

// GStreamer and its registry are loaded before any command: a process started ahead of need (a
// spare, session/pipeline-processes.ts) is then ready to build its pipeline the moment it is told to.
loadGst();

const STATS_INTERVAL_MS = 1000;
/** A worker that is gone: the pipeline ends within this, whether or not its stop returns (half the promise, for the kill and its detection). */
const ORPHAN_EXIT_MS = PIPELINE_ORPHAN_EXIT_MS / 2;
/** SIGTERM: a clean stop gets this long, then the process ends regardless (within the 2 s a supervisor or an orchestrator is promised). */
const TERM_EXIT_MS = 1500;
/** The worker's stop command: the recording is written out first, so a little longer. */
const STOP_EXIT_MS = 4000;

/**
 * Keeps the process's deadlines on a thread of its own: a pipeline that publishes with a creator's
 * stream key must never outlive its worker, and its stop can block (exit-guard.ts). The worker's
 * death is noticed from the kernel's parent pid too, not only from the IPC channel, which a blocked
 * main thread never reads.
 */
const guard = new ExitGuard({ parentPid: process.ppid, orphanGraceMs: ORPHAN_EXIT_MS - 100, pollMs: 50 });

let logger = createLogger('pipeline', process.env.LOG_LEVEL ?? 'info');
let program: ProgramPipeline | undefined;
let statsTimer: NodeJS.Timeout | undefined;
/**
 * Set by `stop`: commands still queued behind it (a plan the worker sent while this process was being
 * replaced) are dropped. Applied after the stop they would start a recording part of their own,
 * under the name the replacing process takes for its part.
 */
let stopping = false;
/** Commands run one after another, in the order they came. */
let commands: Promise<void> = Promise.resolve();

function send(report: PipelineReport): void {
  if (process.connected) process.send?.(report);
}

function exitAfterFlush(code: number): void {
  // process.send is asynchronous; exit once the channel has taken the last report.
  if (process.connected) process.send?.({ type: 'state', state: code === 0 ? 'stopped' : 'failed' } satisfies PipelineReport, () => process.exit(code));
  else process.exit(code);
}

function fail(code: PipelineErrorCode, message: string): void {
  send({ type: 'error', code, message, fatal: true });
  guard.arm(TERM_EXIT_MS);
  if (statsTimer) clearInterval(statsTimer);
  try {
    program?.stop();
  } catch {
    // Already failing: the process exits and its supervisor starts a new one.
  }
  exitAfterFlush(1);
}

function handle(command: PipelineCommand): void | Promise<void> {
  if (stopping) return;
  switch (command.type) {
    case 'start': {
      if (program) return;
      const { config } = command;
      logger = logger.child({ sessionId: config.sessionId });
      // The destinations' connections live in the worker, which takes the encoded program here.
      if (!config.outputPorts) throw new Error('start without the ports of the outputs');
      program = new ProgramPipeline(
        config.sessionId,
        config.plan,
        config.planVersion,
        config.outputPolicy,
        {
          fatal: (code, message) => fail(code, message),
          inputFailed: (inputId, message) => send({ type: 'error', code: 'INPUT_FAILED', message: `input ${inputId}: ${message}`, fatal: false }),
          keyframeWanted: (inputId) => send({ type: 'keyframeWanted', inputId }),
          chatOnAir: (onAir) => send({ type: 'chatOnScreenApplied', onAir }),
        },
        logger,
        config.outputPorts,
        config.dotDir,
        config.encoderStep,
        config.jitterLatencyMs,
      );
      send({ type: 'state', state: 'starting' });
      const started = program;
      return started.start().then(() => {
        send({ type: 'state', state: 'playing' });
        send({ type: 'planApplied', version: config.planVersion });
        statsTimer = setInterval(() => {
          if (program) send({ type: 'stats', stats: program.tick() });
        }, STATS_INTERVAL_MS);
      });
    }
    case 'applyPlan': {
      if (!program) return;
      const { version } = command;
      return program.apply(command.plan, version).then(() => send({ type: 'planApplied', version }));
    }
    case 'setOutputs':
      return program?.setOutputs(command.outputs);
    case 'setRecording':
      program?.setRecording(command.recording ?? undefined);
      return;
    case 'encoderStep':
      if (!program) return;
      // The next stats (within a second) say where the encoder is now, read from the encoder.
      program.setEncoderStep(command.step);
      return;
    case 'jitterLatency':
      program?.setJitterLatency(command.ms);
      return;
    case 'keyframe':
      program?.requestCanvasKeyframe(command.canvas);
      return;
    case 'presence':
      return program?.replan(command.plan);
    case 'chatOnScreen':
      program?.setChatOnScreen(command.chatOnScreen);
      return;
    case 'stop':
      stopping = true;
      // The recording's last fragment takes about a second (outputs/recording.ts); the rest is a stop that may block.
      guard.arm(STOP_EXIT_MS);
      if (statsTimer) clearInterval(statsTimer);
      send({ type: 'state', state: 'stopping' });
      // A recording's last fragment is written out before the pipeline goes.
      return (program?.finishRecording() ?? Promise.resolve()).then(() => {
        program?.stop();
        logger.info('pipeline stopped');
        exitAfterFlush(0);
      });
  }
}

process.on('message', (raw: unknown) => {
  const parsed = pipelineCommandSchema.safeParse(raw);
  if (!parsed.success) {
    logger.error({ issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) }, 'invalid command');
    send({ type: 'error', code: 'PLAN_INVALID', message: 'invalid command', fatal: false });
    return;
  }
  const command = parsed.data;
  commands = commands
    .then(() => handle(command))
    .catch((err: unknown) => {
      logger.error({ err }, 'pipeline command failed');
      fail('PIPELINE_FAILED', err instanceof Error ? err.message : String(err));
    });
});

// The worker is gone (killed, crashed): a pipeline nobody supervises must not keep streaming.
process.on('disconnect', () => {
  guard.arm(ORPHAN_EXIT_MS);
  if (statsTimer) clearInterval(statsTimer);
  program?.stop();
  process.exit(0);
});
process.on('SIGTERM', () => {
  guard.arm(TERM_EXIT_MS);
  if (statsTimer) clearInterval(statsTimer);
  program?.stop();
  process.exit(0);
});
