// `./onair test`: every check of the project in one run, on real services started once and shared
// by every workspace (each test file still gets its own database). It runs all steps even after a
// failure, prints a summary and the plain closing line `N passed, N failed`, and exits non-zero if
// anything failed.
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import setupTestServices from '../embedded/src/test-services.ts';

const root = new URL('..', import.meta.url).pathname;
// The integration suites drive real processes (GStreamer, Chromium, nginx, several workers) on a
// 2-core machine; a test that fails is run once more before it counts as failed, and the retried
// ones are named in the summary so a flaky test stays visible instead of silently passing.
const RETRIES = Number(process.env.ONAIR_TEST_RETRIES ?? 1);
/**
 * Test files that pass in a run of their own but fail after the rest of their workspace's files
 * in the same run, for a reason not found yet (see the closing note of the session that added the
 * entry). They still run, in a vitest invocation of their own; remove an entry once its cause is fixed.
 */
const isolatedTestFiles: Record<string, string[]> = {};
const workspacesWithTests = ['protocol', 'runtime', 'prisma', 'embedded', 'api', 'media-worker', 'render-worker', 'control-ui', 'load-tests'];

interface StepResult {
  name: string;
  ok: boolean;
  seconds: number;
  passed: number;
  failed: number;
  skipped: number;
  retried: string[];
  failures: string[];
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}, cwd = root): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  /** Tests that failed once and passed when run again. */
  retried: string[];
  /** Tests that failed, with the first line of their error: the summary is often all a CI log keeps. */
  failures: string[];
}

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: { name: string; status: string; message?: string; assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[];
}

interface PlaywrightSuite {
  title: string;
  specs?: { title: string; line?: number; tests: { status: string; results?: { error?: { message?: string } }[] }[] }[];
  suites?: PlaywrightSuite[];
}

/** The first line that says something, without colour codes, cut to one summary line. */
function firstLine(message = ''): string {
  // eslint-disable-next-line no-control-regex
  const line = message.replace(/\u001b\[[0-9;]*m/g, '').split('\n').map((l) => l.trim()).find((l) => l.length > 0) ?? '';
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}

function failedPlaywrightTests(suites: PlaywrightSuite[] = []): string[] {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? [])
      .filter((spec) => spec.tests.some((t) => t.status === 'unexpected'))
      .map((spec) => {
        const error = spec.tests.flatMap((t) => t.results ?? []).find((r) => r.error)?.error?.message;
        return `${suite.title}:${spec.line ?? '?'} › ${spec.title} — ${firstLine(error)}`;
      }),
    ...failedPlaywrightTests(suite.suites),
  ]);
}

function flakyPlaywrightTests(suites: PlaywrightSuite[] = []): string[] {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? []).filter((spec) => spec.tests.some((t) => t.status === 'flaky')).map((spec) => `${suite.title} › ${spec.title}`),
    ...flakyPlaywrightTests(suite.suites),
  ]);
}

async function readCounts(file: string, kind: 'vitest' | 'playwright'): Promise<Counts> {
  try {
    const report = JSON.parse(await readFile(file, 'utf8')) as unknown;
    if (kind === 'vitest') {
      const r = report as VitestReport;
      // A test that passed on its retry keeps the errors of the attempt that failed.
      const retried = r.testResults.flatMap((f) => f.assertionResults.filter((a) => a.status === 'passed' && a.failureMessages.length > 0).map((a) => a.fullName));
      const failures = r.testResults.flatMap((f) => {
        const file = f.name.replace(root, '');
        const tests = f.assertionResults.filter((a) => a.status === 'failed').map((a) => `${file} › ${a.fullName} — ${firstLine(a.failureMessages.at(-1))}`);
        // A file that failed outside its tests (a hook, an import) has no failed test to name.
        return tests.length === 0 && f.status === 'failed' ? [`${file} — ${firstLine(f.message)}`] : tests;
      });
      return { passed: r.numPassedTests, failed: r.numFailedTests, skipped: r.numPendingTests + r.numTodoTests, retried, failures };
    }
    const p = report as { stats: { expected: number; unexpected: number; flaky: number; skipped: number }; suites: PlaywrightSuite[] };
    return { passed: p.stats.expected + p.stats.flaky, failed: p.stats.unexpected, skipped: p.stats.skipped, retried: flakyPlaywrightTests(p.suites), failures: failedPlaywrightTests(p.suites) };
  } catch {
    return { passed: 0, failed: 0, skipped: 0, retried: [], failures: [] };
  }
}

const results: StepResult[] = [];
async function step(name: string, body: () => Promise<{ ok: boolean; passed?: number; failed?: number; skipped?: number; retried?: string[]; failures?: string[] }>): Promise<void> {
  const started = Date.now();
  process.stdout.write(`\n\u001b[1;34m[onair test]\u001b[0m ${name}\n`);
  const r = await body();
  results.push({ name, ok: r.ok, seconds: (Date.now() - started) / 1000, passed: r.passed ?? 0, failed: r.failed ?? (r.ok ? 0 : 1), skipped: r.skipped ?? 0, retried: r.retried ?? [], failures: r.failures ?? [] });
}

// Everything the run puts in the temp folder (test data, browser profiles, caches of the tools) goes
// into one folder of its own: every process of the run inherits TMPDIR. What is still in it at the end
// was left behind by something (a leak to fix): it is named in the summary, then removed with the folder.
const systemTmp = tmpdir();
const tmpBefore = new Set(await readdir(systemTmp));
const runTmp = await mkdtemp(join(systemTmp, 'onair-test-run-'));
// Embedded PostgreSQL runs as the postgres user, whose data folders are in here: let it pass through.
await chmod(runTmp, 0o711);
process.env.TMPDIR = runTmp;
const reports = await mkdtemp(join(runTmp, 'onair-reports-'));
const stopServices = await setupTestServices();
try {
  await step('typecheck (every workspace)', async () => ({ ok: (await run('npm', ['run', '--silent', 'typecheck'])) === 0 }));
  await step('lint (every workspace, zero warnings)', async () => ({ ok: (await run('npm', ['run', '--silent', 'lint'])) === 0 }));
  // The stack and end-to-end tests serve the built web app.
  await step('build: control-ui', async () => ({ ok: (await run('npm', ['run', '--silent', 'build', '-w', 'control-ui'])) === 0 }));
  for (const ws of workspacesWithTests) {
    const own = isolatedTestFiles[ws] ?? [];
    const vitest = (name: string, args: string[]) =>
      step(name, async () => {
        const file = join(reports, `${name.replace(/[^a-z0-9]+/gi, '-')}.json`);
        const code = await run('npx', ['vitest', 'run', `--retry=${RETRIES}`, '--reporter=default', '--reporter=json', `--outputFile.json=${file}`, ...args], {}, join(root, ws));
        const counts = await readCounts(file, 'vitest');
        return { ok: code === 0, ...counts, failed: code === 0 ? counts.failed : Math.max(counts.failed, 1) };
      });
    await vitest(`tests: ${ws}`, own.flatMap((f) => ['--exclude', f]));
    for (const f of own) await vitest(`tests: ${ws} ${f} (own run)`, [f]);
  }
  await step('end to end: control-ui/e2e (Playwright, system Chromium)', async () => {
    const file = join(reports, 'e2e.json');
    const code = await run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', `--retries=${RETRIES}`, '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: file }, join(root, 'control-ui'));
    const counts = await readCounts(file, 'playwright');
    return { ok: code === 0, ...counts, failed: code === 0 ? counts.failed : Math.max(counts.failed, 1) };
  });
} finally {
  await stopServices();
  await rm(reports, { recursive: true, force: true });
}
const leftInRunTmp = await readdir(runTmp);
await rm(runTmp, { recursive: true, force: true });
// Things made outside TMPDIR (programs that use fixed paths under /tmp) show up here.
const leftInSystemTmp = (await readdir(systemTmp)).filter((name) => !tmpBefore.has(name));

/** `onair-page-123-abc`, `onair-page-456-def` → `onair-page-* ×2`. */
function grouped(names: string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) {
    const key = name.replace(/[-.][A-Za-z0-9_]{4,}$/, '-*').replace(/\d+/g, 'N');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => (n > 1 ? `${k} ×${n}` : k)).join(', ');
}

process.stdout.write('\n\u001b[1;34m[onair test]\u001b[0m summary\n');
for (const r of results) {
  const counts = r.passed + r.failed + r.skipped > 0 ? `  ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped` : '';
  process.stdout.write(`  ${r.ok ? 'ok  ' : 'FAIL'}  ${r.name.padEnd(58)} ${r.seconds.toFixed(1).padStart(6)} s${counts}\n`);
  for (const name of r.retried) process.stdout.write(`          passed only on its retry: ${name}\n`);
  for (const name of r.failures) process.stdout.write(`          failed: ${name}\n`);
}
// Caches the tools keep in the temp folder by design (tsx, Node's compile cache, Playwright, jiti).
const isToolCache = (name: string) => /^(tsx-\d+|node-compile-cache|playwright-transform-cache-\d+|jiti)$/.test(name);
const caches = leftInRunTmp.filter(isToolCache);
const leaks = leftInRunTmp.filter((name) => !isToolCache(name));
if (caches.length > 0) process.stdout.write(`  tool caches in the run's temp folder (removed now): ${grouped(caches)}\n`);
if (leaks.length > 0) process.stdout.write(`  left behind in the run's temp folder (removed now; something did not clean up): ${grouped(leaks)}\n`);
if (leftInSystemTmp.length > 0) process.stdout.write(`  left in ${systemTmp} outside the run's folder: ${grouped(leftInSystemTmp)}\n`);
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
const skipped = results.reduce((n, r) => n + r.skipped, 0);
const allOk = results.every((r) => r.ok);
process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(allOk ? 0 : 1);
