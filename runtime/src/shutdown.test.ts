// onShutdownSignal in a process of its own: a stop ends the process with 0, and a stop whose main
// thread is stuck in a synchronous call (so the deadline's own timer can never run) is still ended
// by the watchdog thread once the deadline and its backstop have passed. And a process whose
// stdout's reader died (the one-machine stack killed with -9) still stops, logging as it goes.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SHUTDOWN = fileURLToPath(new URL('./shutdown.ts', import.meta.url));
const LOGGER = fileURLToPath(new URL('./logger.ts', import.meta.url));

/** A process that registers `shutdown` and says when it is ready; the exit of it after SIGTERM. */
async function stopped(shutdown: string): Promise<{ code: number | null; signal: NodeJS.Signals | null; said: string }> {
  const source = `
    import { onShutdownSignal } from ${JSON.stringify(SHUTDOWN)};
    import { createLogger } from ${JSON.stringify(LOGGER)};
    onShutdownSignal(createLogger('shutdown-test'), async () => { ${shutdown} }, 300);
    setInterval(() => undefined, 1000);
    process.stdout.write('ready\\n');
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', source], { stdio: ['ignore', 'pipe', 'pipe'] });
  let said = '';
  child.stdout.on('data', (d: Buffer) => (said += d.toString()));
  child.stderr.on('data', (d: Buffer) => (said += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const look = setInterval(() => {
      if (said.includes('ready\n')) {
        clearInterval(look);
        resolve();
      }
      if (child.exitCode !== null) reject(new Error(`exited before it was ready: ${said}`));
    }, 20);
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  child.kill('SIGTERM');
  return { ...(await exit), said };
}

describe('onShutdownSignal', { timeout: 60_000 }, () => {
  it('exits with 0 once the shutdown steps are done', async () => {
    const exit = await stopped('await new Promise((r) => setTimeout(r, 50));');
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.said).toContain('stopped cleanly');
  });

  it('exits with a failure code when the steps outlive the deadline', async () => {
    const exit = await stopped('await new Promise(() => undefined);');
    expect(exit).toMatchObject({ code: 1, signal: null });
    expect(exit.said).toContain('shutdown timed out');
  });

  it('is ended by its watchdog thread when the main thread is stuck past the deadline', async () => {
    // A synchronous loop that never yields: no timer of the main thread runs again.
    const exit = await stopped('for (;;) {}');
    expect(exit).toMatchObject({ code: null, signal: 'SIGKILL' });
    expect(exit.said).not.toContain('stopped cleanly');
  });

  it('stops at once when the reader of its stdout was killed with -9 (its shutdown lines go nowhere)', async () => {
    // A middle process reads the stopping process's stdout, as the stack reads its processes', and
    // is killed with -9; the kernel then sends the stopping process SIGTERM (pdeathsig, as the stack
    // tethers its processes). Its deadline is 60 s, so only a stop that hangs in logging fails.
    const child = `
      import { onShutdownSignal } from ${JSON.stringify(SHUTDOWN)};
      import { createLogger } from ${JSON.stringify(LOGGER)};
      const logger = createLogger('orphaned');
      onShutdownSignal(logger, async () => { for (let i = 0; i < 2000; i++) logger.info({ i, pad: 'x'.repeat(200) }, 'stopping'); }, 60_000);
      setInterval(() => undefined, 1000);
      logger.info('ready');
    `;
    const middle = `
      const { spawn } = require('node:child_process');
      const c = spawn('setpriv', ['--pdeathsig', 'TERM', '--', process.execPath, '--import', 'tsx', '--input-type=module', '-e', ${JSON.stringify(child)}], { stdio: ['ignore', 'pipe', 'pipe'] });
      let ready = false;
      c.stdout.on('data', (d) => { if (!ready && d.toString().includes('ready')) { ready = true; process.stdout.write(c.pid + '\\n'); } });
      setInterval(() => undefined, 1000);
    `;
    const parent = spawn(process.execPath, ['-e', middle], { stdio: ['ignore', 'pipe', 'inherit'] });
    const pid = await new Promise<number>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
    parent.kill('SIGKILL');
    const alive = () => {
      try {
        return !/State:\s+Z/.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 400 && alive(); i++) await new Promise((r) => setTimeout(r, 50));
    const stillThere = alive();
    if (stillThere) process.kill(pid, 'SIGKILL');
    expect(stillThere, 'the orphaned process was still running 20 s after its reader died').toBe(false);
  });
});
