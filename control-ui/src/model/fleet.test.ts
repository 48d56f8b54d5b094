import { describe, expect, it } from 'vitest';
import type { FleetLoadSample } from '@onair/protocol';
import { formatBytes, formatDuration, loadChart, loadLevel, workerLoad } from './fleet.ts';

const sample = (msAgo: number, now: number, values: Partial<FleetLoadSample>): FleetLoadSample => ({
  at: new Date(now - msAgo).toISOString(),
  mediaWorkers: 2,
  drainingWorkers: 0,
  renderWorkers: 1,
  sessions: 0,
  queued: 0,
  cpuCores: 0,
  cores: 8,
  outputs: 0,
  bitrateKbps: 0,
  ...values,
});

describe('fleet model', () => {
  it('turns CPU figures into a clamped load and a level', () => {
    expect(workerLoad({ cpuCores: 2, cores: 8 })).toBe(0.25);
    expect(workerLoad({ cpuCores: 9, cores: 8 })).toBe(1);
    expect(workerLoad({ cpuCores: 1, cores: 0 })).toBe(0);
    expect([0.5, 0.75, 0.95].map(loadLevel)).toEqual(['ok', 'busy', 'full']);
  });

  it('formats sizes and durations for people', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(300 * 1024 * 1024)).toBe('300 MiB');
    expect(formatBytes(1.5 * 1024 ** 3)).toBe('1.5 GiB');
    expect(formatDuration(4_400)).toBe('4 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
    expect(formatDuration(3_840_000)).toBe('1 h 4 min');
  });

  it('draws the last hour on a time axis, CPU on 0..100 %, sessions and queue on one scale', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    const hour = 3_600_000;
    const samples = [
      sample(2 * hour, now, { sessions: 99 }), // outside the window: not drawn, not in the scale
      sample(hour, now, { cpuCores: 0, sessions: 0 }),
      sample(hour / 2, now, { cpuCores: 4, sessions: 10, queued: 5 }),
      sample(0, now, { cpuCores: 8, sessions: 20 }),
    ];
    const chart = loadChart(samples, now, hour, 100, 50);
    expect(chart.cpu.path).toBe('M0,50L50,25L100,0');
    expect(chart.sessions).toMatchObject({ path: 'M0,50L50,25L100,0', max: 20, latest: 20 });
    expect(chart.queued.path).toBe('M0,50L50,37.5L100,50');
    expect(chart.startedAt).toBe(samples[1]!.at);
  });

  it('draws nothing without samples', () => {
    const chart = loadChart([], Date.now(), 3_600_000, 100, 50);
    expect(chart.cpu).toEqual({ path: '', max: 1, latest: null });
  });
});
