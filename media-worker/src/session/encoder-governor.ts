import type { Logger } from '@onair/runtime';

/** A running session as the governor sees it. */
export interface GovernedSession {
  readonly sessionId: string;
  /** Its step now, and how many its ladder has (encoder-ladder.ts). */
  readonly step: number;
  readonly steps: number;
  /** Pixels the profile encodes at step 0: the costlier session gives way first. */
  readonly pixels: number;
  /** Latest program frame rate and the profile's; undefined until the first stats. */
  readonly fps: number | undefined;
  readonly targetFps: number;
  /**
   * Whether its pipeline has played long enough for its figures to mean something: a process that
   * just started or restarted (a rebuild) is short of frames while it fills its buffers, and is
   * neither judged nor stepped until it settles. The session stays listed meanwhile, so what the
   * governor learnt of it (a step that saved nothing) outlives the restart.
   */
  readonly settled: boolean;
  setStep(step: number): void;
}

export interface EncoderGovernorOptions {
  /** Cores the worker's process tree may use before sessions step down. */
  budgetCores: number;
  /** Cores the worker's process tree used since the previous call. */
  sampleCores(): number;
  sessions(): GovernedSession[];
  logger: Logger;
  /** Consecutive samples over budget (or with frames short) before a step down. */
  overSamples?: number;
  /** Time after a change before the next one, so the figures show its effect first. */
  holdMs?: number;
  /** Time under budget after the last change before a session steps back up. */
  upAfterMs?: number;
  /**
   * A step down that saved less than this (cores, measured one hold period after it) is taken back,
   * and that session goes no further down: e.g. a faster preset whose saving the rest of the
   * session's pipeline hides (bench/pipeline-bench.ts, encoder ladder).
   */
  minSavingCores?: number;
}

export interface GovernorDecision {
  sessionId: string;
  from: number;
  to: number;
  cores: number;
  reason: 'cpu' | 'frames' | 'recovered' | 'saved-nothing';
}

/**
 * Keeps a media worker inside its CPU budget once it runs (admission only refuses new work):
 * every second it reads the cores of the worker's whole process tree; after a few samples over
 * the budget, or with a session's frame rate falling short, it steps one session's encoder down
 * (the least stepped-down first, the biggest picture among equals), waits for the figures to show
 * the effect, and goes on if that was not enough. When the worker has stayed well under budget for
 * a while, the most stepped-down session steps back up, but only if what that step saved when it
 * was taken fits under the budget now, so a session does not bounce between two steps. A step that
 * saved nothing measurable is taken back at once, and that session is not stepped past it again.
 */
export class EncoderGovernor {
  private over = 0;
  private lastChangeAt = 0;
  private lastOverAt = 0;
  /** Cores each step down saved, measured one hold period after it (by session, last step last). */
  private readonly saved = new Map<string, number[]>();
  private pending: { sessionId: string; from: number; before: number; at: number } | undefined;
  /** Per session, the lowest step worth taking: a step past it saved nothing. */
  private readonly floor = new Map<string, number>();
  private readonly recent: number[] = [];

  constructor(private readonly options: EncoderGovernorOptions) {}

  get budgetCores(): number {
    return this.options.budgetCores;
  }

  /** Operators (and the step-down test) may move the budget while the worker runs. */
  set budgetCores(cores: number) {
    this.options.budgetCores = cores;
  }

  tick(now = Date.now()): GovernorDecision | undefined {
    const cores = this.options.sampleCores();
    this.recent.push(cores);
    if (this.recent.length > 3) this.recent.shift();
    const sessions = this.options.sessions();
    for (const map of [this.saved, this.floor]) for (const id of map.keys()) if (!sessions.some((s) => s.sessionId === id)) map.delete(id);
    const hold = this.options.holdMs ?? 5000;
    const average = this.recent.reduce((a, b) => a + b, 0) / this.recent.length;
    if (this.pending && now - this.pending.at >= hold) {
      const { sessionId, from, before } = this.pending;
      this.pending = undefined;
      const saving = before - average;
      const session = sessions.find((s) => s.sessionId === sessionId);
      if (session && saving < (this.options.minSavingCores ?? 0.02)) {
        this.floor.set(sessionId, from);
        return this.change(session, from, cores, 'saved-nothing', now);
      }
      const list = this.saved.get(sessionId) ?? [];
      list.push(Math.max(0, saving));
      this.saved.set(sessionId, list);
    }

    const short = sessions.some((s) => s.settled && s.fps !== undefined && s.fps > 0 && s.fps < s.targetFps - 1.5);
    const overBudget = cores > this.options.budgetCores;
    if (overBudget || short) {
      this.over += 1;
      this.lastOverAt = now;
    } else {
      this.over = 0;
    }
    if (now - this.lastChangeAt < hold) return undefined;

    if (this.over >= (this.options.overSamples ?? 3)) {
      const candidates = sessions.filter((s) => s.settled && s.step < Math.min(s.steps - 1, this.floor.get(s.sessionId) ?? Infinity));
      candidates.sort((a, b) => a.step - b.step || b.pixels - a.pixels);
      const session = candidates[0];
      if (!session) return undefined;
      return this.change(session, session.step + 1, cores, overBudget ? 'cpu' : 'frames', now);
    }

    const upAfter = this.options.upAfterMs ?? 60_000;
    if (now - this.lastOverAt < upAfter || now - this.lastChangeAt < upAfter) return undefined;
    const stepped = sessions.filter((s) => s.settled && s.step > 0).sort((a, b) => b.step - a.step || a.pixels - b.pixels)[0];
    if (!stepped) return undefined;
    const savings = this.saved.get(stepped.sessionId);
    // What going back costs: what the step saved when it was taken (a step never measured: a third of what the worker uses).
    const cost = savings?.at(-1) ?? average / 3;
    if (average + cost > this.options.budgetCores * 0.9) return undefined;
    savings?.pop();
    return this.change(stepped, stepped.step - 1, cores, 'recovered', now);
  }

  private change(session: GovernedSession, to: number, cores: number, reason: GovernorDecision['reason'], now: number): GovernorDecision {
    const decision: GovernorDecision = { sessionId: session.sessionId, from: session.step, to, cores: Math.round(cores * 100) / 100, reason };
    session.setStep(to);
    this.lastChangeAt = now;
    this.over = 0;
    this.pending =
      to > decision.from
        ? { sessionId: session.sessionId, from: decision.from, before: this.recent.reduce((a, b) => a + b, 0) / this.recent.length, at: now }
        : undefined;
    const words = {
      cpu: 'worker over its CPU budget: encoder stepped down',
      frames: 'session short of frames: encoder stepped down',
      recovered: 'worker back under its CPU budget: encoder stepped up',
      'saved-nothing': 'encoder step saved no CPU: taken back',
    };
    this.options.logger.warn({ ...decision, budget: this.options.budgetCores }, words[reason]);
    return decision;
  }
}
