import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { EncoderGovernor, type GovernedSession } from './encoder-governor.ts';

interface FakeSession extends GovernedSession {
  step: number;
  fps: number | undefined;
  settled: boolean;
}

function session(sessionId: string, pixels: number, steps = 5): FakeSession {
  const s: FakeSession = {
    sessionId,
    step: 0,
    steps,
    pixels,
    fps: 30,
    targetFps: 30,
    settled: true,
    setStep: (step) => {
      s.step = step;
    },
  };
  return s;
}

/** A governor over `sessions` whose CPU figure is whatever `cores.now` says. */
function governed(sessions: FakeSession[], budgetCores = 1.8, minSavingCores = -1) {
  const cores = { now: 0 };
  const governor = new EncoderGovernor({
    budgetCores,
    sampleCores: () => cores.now,
    sessions: () => sessions,
    logger: pino({ level: 'silent' }),
    overSamples: 3,
    holdMs: 5000,
    upAfterMs: 60_000,
    minSavingCores,
  });
  let t = 1_000_000;
  const run = (seconds: number) => {
    const decisions = [];
    for (let i = 0; i < seconds; i++) {
      t += 1000;
      const d = governor.tick(t);
      if (d) decisions.push(d);
    }
    return decisions;
  };
  return { governor, cores, run };
}

describe('encoder governor', () => {
  it('leaves sessions alone while the worker stays within its budget, and for a short spike', () => {
    const a = session('a', 1280 * 720);
    const { cores, run } = governed([a]);
    cores.now = 1.2;
    expect(run(30)).toEqual([]);
    cores.now = 1.95;
    expect(run(2)).toEqual([]);
    cores.now = 1.2;
    expect(run(10)).toEqual([]);
    expect(a.step).toBe(0);
  });

  it('steps the biggest, least stepped-down session down after three samples over budget, then waits to see the effect', () => {
    const small = session('small', 854 * 480);
    const big = session('big', 1920 * 1080);
    const { cores, run } = governed([small, big]);
    cores.now = 1.95;
    const first = run(3);
    expect(first).toEqual([{ sessionId: 'big', from: 0, to: 1, cores: 1.95, reason: 'cpu' }]);
    // Still over budget: nothing more until the hold period is over, then the other session (now the least stepped-down).
    expect(run(4)).toEqual([]);
    const second = run(1);
    expect(second).toEqual([{ sessionId: 'small', from: 0, to: 1, cores: 1.95, reason: 'cpu' }]);
    cores.now = 1.5;
    expect(run(20)).toEqual([]);
    expect([small.step, big.step]).toEqual([1, 1]);
  });

  it('steps down when a session falls short of its frame rate even under budget, and stops at the bottom of the ladder', () => {
    const a = session('a', 1280 * 720, 3);
    const { cores, run } = governed([a]);
    cores.now = 1.0;
    a.fps = 24;
    const decisions = run(30);
    expect(decisions.map((d) => [d.to, d.reason])).toEqual([
      [1, 'frames'],
      [2, 'frames'],
    ]);
    expect(a.step).toBe(2);
  });

  it('steps back up after a minute well under budget only when what the step saved fits', () => {
    const a = session('a', 1280 * 720);
    const { cores, run } = governed([a]);
    cores.now = 1.9;
    run(3);
    expect(a.step).toBe(1);
    // The step saved 0.4 cores (1.9 → 1.5, measured after the hold period).
    cores.now = 1.5;
    expect(run(61)).toEqual([]);
    // 1.5 + 0.4 would pass 90 % of the budget: it stays down.
    expect(a.step).toBe(1);
    cores.now = 1.1;
    const up = run(61);
    expect(up).toEqual([{ sessionId: 'a', from: 1, to: 0, cores: 1.1, reason: 'recovered' }]);
    expect(a.step).toBe(0);
  });

  it('follows a budget moved while it runs', () => {
    const a = session('a', 1280 * 720);
    const { governor, cores, run } = governed([a]);
    cores.now = 0.5;
    expect(run(10)).toEqual([]);
    governor.budgetCores = 0.1;
    expect(run(3).map((d) => d.to)).toEqual([1]);
  });

  it('takes back a step that saved nothing and does not step that session past it again', () => {
    const a = session('a', 1280 * 720);
    const { cores, run } = governed([a], 1.8, 0.02);
    cores.now = 1.9;
    expect(run(3).map((d) => [d.to, d.reason])).toEqual([[1, 'cpu']]);
    // Step 1 saves 0.05 cores; still over budget, so step 2 after the hold period, which saves nothing.
    cores.now = 1.85;
    expect(run(4)).toEqual([]);
    expect(run(1).map((d) => [d.to, d.reason])).toEqual([[2, 'cpu']]);
    const back = run(5);
    expect(back.map((d) => [d.from, d.to, d.reason])).toEqual([[2, 1, 'saved-nothing']]);
    // Still over budget, but this session stays at its last useful step.
    expect(run(30)).toEqual([]);
    expect(a.step).toBe(1);
  });

  it('judges and steps a session only once its pipeline has settled, and remembers across a restart what a step saved', () => {
    const a = session('a', 1280 * 720);
    const { cores, run } = governed([a], 1.8, 0.02);
    // A pipeline that just started (or restarted for a rebuild) is short of frames while it fills its buffers.
    a.settled = false;
    a.fps = 12;
    cores.now = 1.0;
    expect(run(20)).toEqual([]);
    expect(a.step).toBe(0);
    // Settled and still short: a step down; it saves nothing, so it is taken back.
    a.settled = true;
    expect(run(3).map((d) => [d.to, d.reason])).toEqual([[1, 'frames']]);
    expect(run(5).map((d) => [d.from, d.to, d.reason])).toEqual([[1, 0, 'saved-nothing']]);
    // The pipeline restarts (a rebuild) and settles again, still short: not stepped past what saved nothing.
    a.settled = false;
    expect(run(10)).toEqual([]);
    a.settled = true;
    expect(run(30)).toEqual([]);
    expect(a.step).toBe(0);
  });
});
