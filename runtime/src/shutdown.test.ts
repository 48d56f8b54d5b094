// onShutdownSignal in a process of its own: a stop ends the process with 0, and a stop whose main
// thread is stuck in a synchronous call (so the deadline's own timer can never run) is still ended
// by the watchdog thread once the deadline and its backstop have passed.
import { spawn } from 'node:child_process';
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
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
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
});
