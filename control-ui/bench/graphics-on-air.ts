// Graphics on air (issue 53 item 1): how long a chat message takes to reach the program's RTMP
// output after the click that shows it, and to leave it after the click that takes it off.
//
// Runs the e2e flow e2e/graphics-on-air.spec.ts (the whole stack, started by its global setup)
// with more tries, reads the times it records as annotations, and prints p50/p95/max per run.
// Run by hand, on a quiet machine, after building the web app:
//
//   cd control-ui && npm run build && node bench/graphics-on-air.ts [--tries 10] [--runs 2]
//
// The first click of a run is reported apart as well: it is the one that used to load the overlay
// page. Times are from the click (performance.now() in the test, just before Playwright clicks) to
// the arrival of the first decoded output frame that shows (or no longer shows) the lower third at
// a reader of the local RTMP server: they include the reader's own pull and decode, tens of ms.
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  const value = at >= 0 ? Number(args[at + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} wants a whole number, got ${args[at + 1]}`);
  return value;
};
const tries = option('tries', 10);
const runs = option('runs', 2);
const root = fileURLToPath(new URL('..', import.meta.url));
const print = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

interface Annotation {
  type: string;
  description?: string;
}
interface Suite {
  suites?: Suite[];
  specs?: { tests: { results: { status: string; annotations?: Annotation[]; errors?: { message?: string }[] }[] }[] }[];
}

function annotationsOf(suite: Suite): { status: string; annotations: Annotation[]; errors: string[] }[] {
  const own = (suite.specs ?? []).flatMap((spec) =>
    spec.tests.flatMap((t) =>
      t.results.map((r) => ({ status: r.status, annotations: r.annotations ?? [], errors: (r.errors ?? []).map((e) => e.message ?? '') })),
    ),
  );
  return [...own, ...(suite.suites ?? []).flatMap(annotationsOf)];
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function summary(label: string, values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `${label.padEnd(22)} n=${String(values.length).padStart(2)}  p50 ${String(percentile(sorted, 50)).padStart(5)} ms  p95 ${String(percentile(sorted, 95)).padStart(5)} ms  max ${String(sorted.at(-1)).padStart(5)} ms  all ${values.join(' ')}`;
}

for (let run = 1; run <= runs; run++) {
  const result = spawnSync('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', 'e2e/graphics-on-air.spec.ts', '--reporter=json'], {
    cwd: root,
    env: { ...process.env, ONAIR_GRAPHICS_TRIES: String(tries) },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const report = JSON.parse(result.stdout) as { suites: Suite[] };
  const tests = report.suites.flatMap(annotationsOf);
  const times = (type: string) => tests.flatMap((t) => t.annotations.filter((a) => a.type === type).map((a) => Number(a.description)));
  const shown = times('graphic-shown-ms');
  const gone = times('graphic-gone-ms');
  const loads = loadavg().map((l) => l.toFixed(1));
  print(`run ${run}: ${tests.map((t) => t.status).join(', ')}; load average after ${loads.join(' ')}`);
  for (const t of tests) for (const e of t.errors) print(`  ${e.split('\n')[0]}`);
  print(`  ${summary('click → shown', shown)}`);
  print(`  ${summary('  first click', shown.slice(0, 1))}`);
  print(`  ${summary('  later clicks', shown.slice(1))}`);
  print(`  ${summary('take off → gone', gone)}`);
}
