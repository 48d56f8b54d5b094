import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { leftoverProcesses, readProcessTable, stillRunning, type ProcessEntry } from './process-table.ts';
import { killProcesses, waitForNoProcesses } from './processes.testkit.ts';
import { TetheredProcess } from './tethered-process.ts';

const moduleUrl = new URL('./tethered-process.ts', import.meta.url).href;
const started: ProcessEntry[] = [];
let dir = '';

afterAll(async () => {
  killProcesses(started);
  if (dir) await rm(dir, { recursive: true, force: true });
});

/**
 * A Node process that starts `sleep <tethered>` tethered and `sleep <plain>` with a plain detached
 * spawn (what the code did before), and prints both pids.
 */
async function parentWithTwoChildren(tethered: string, plain: string): Promise<{ parent: ReturnType<typeof spawn>; programs: ProcessEntry[] }> {
  const script = `
    import { spawn } from 'node:child_process';
    const { TetheredProcess } = await import(${JSON.stringify(moduleUrl)});
    const tethered = new TetheredProcess('sleep', [${JSON.stringify(tethered)}]);
    const plain = spawn('sleep', [${JSON.stringify(plain)}], { detached: true, stdio: 'ignore' });
    setTimeout(() => console.log(tethered.pid + ' ' + plain.pid), 200);
    setInterval(() => {}, 1000);
  `;
  const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve) => createInterface({ input: parent.stdout! }).once('line', resolve));
  const pids = line.split(' ').map(Number);
  const table = readProcessTable();
  const programs = pids.map((pid) => table.find((e) => e.pid === pid)!);
  started.push(...programs);
  return { parent, programs };
}

describe('TetheredProcess', () => {
  it('ends with its parent when the parent is killed with -9, where a plainly spawned program lives on', async () => {
    const { parent, programs } = await parentWithTwoChildren('1001', '1002');
    const [tethered, plain] = programs as [ProcessEntry, ProcessEntry];
    // The pid is the program's own: setpriv and the shell exec'd into it.
    expect(tethered.argv).toEqual(['sleep', '1001']);
    expect(tethered.ppid).toBe(parent.pid);
    // Its own process group.
    expect(tethered.pgid).toBe(tethered.pid);

    parent.kill('SIGKILL');
    const { ms, left } = await waitForNoProcesses(() => stillRunning([tethered]), 2000);
    expect(left).toEqual([]);
    console.warn(`tethered program gone ${ms} ms after its parent's kill -9`);
    // The control: without the tether the program is re-parented and keeps running.
    expect(stillRunning([plain])).toHaveLength(1);
  });

  it('gets the signal it asked for when its parent dies, so a store can shut down cleanly', async () => {
    dir = await mkdtemp(join(tmpdir(), 'onair-tether-'));
    const marker = join(dir, 'got-term');
    const script = `
      const { TetheredProcess } = await import(${JSON.stringify(moduleUrl)});
      new TetheredProcess('sh', ['-c', 'trap "echo term > $0; exit 0" TERM; while :; do sleep 0.05; done', ${JSON.stringify(marker)}], { parentDeathSignal: 'SIGTERM' });
      setTimeout(() => console.log('up'), 300);
      setInterval(() => {}, 1000);
    `;
    const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve) => createInterface({ input: parent.stdout! }).once('line', resolve));
    const shells = () => leftoverProcesses({ mentioning: [marker] });
    started.push(...shells());
    parent.kill('SIGKILL');
    const { left } = await waitForNoProcesses(shells, 2000);
    expect(left).toEqual([]);
    expect((await readFile(marker, 'utf8')).trim()).toBe('term');
  });

  it('stops a program that ignores SIGTERM with SIGKILL after the grace, and what it forked with it', async () => {
    // The shell and its sleep both ignore SIGTERM (an ignored signal is inherited).
    const proc = new TetheredProcess('sh', ['-c', 'trap "" TERM; sleep 1003; :']);
    // The shell forks its sleep when it gets the CPU: a fixed 200 ms wait read the group before the
    // fork on a loaded machine (the light lane runs this suite at nice 10), and the test failed once.
    let group: ProcessEntry[] = [];
    for (let i = 0; i < 500 && group.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 20));
      group = leftoverProcesses({ groups: [proc.pid!] });
    }
    started.push(...group);
    expect(group.map((e) => e.argv[0]).sort()).toEqual(['sh', 'sleep']);
    const exit = await proc.stop({ graceMs: 300 });
    expect(exit).toMatchObject({ forced: true, signal: 'SIGKILL' });
    // The whole group was sent SIGKILL; the sleep, reparented, is gone once the kernel has ended it.
    expect((await waitForNoProcesses(() => stillRunning(group), 5000)).left).toEqual([]);
  });

  it('carries the IPC channel of fork to a Node program (the pipeline process talks to its worker over it)', async () => {
    const proc = new TetheredProcess(process.execPath, ['--input-type=module', '-e', "process.on('message', (m) => process.send({ echo: m }));"], {
      ipc: true,
    });
    started.push(...leftoverProcesses({ groups: [proc.pid!] }));
    const reply = new Promise((resolve) => proc.child.once('message', resolve));
    proc.child.send({ hello: 1 });
    expect(await reply).toEqual({ echo: { hello: 1 } });
    expect(proc.pid).toBe(proc.child.pid);
    await proc.stop();
  });

  it('tethers a program that a library starts from an executable path, through a launcher written for it', async () => {
    dir ||= await mkdtemp(join(tmpdir(), 'onair-tether-'));
    const launcher = join(dir, 'sleep-tethered');
    const script = `
      import { spawn } from 'node:child_process';
      const { writeTetheredLauncher } = await import(${JSON.stringify(moduleUrl)});
      // As puppeteer does with Chromium: the library spawns the path it was given, with its own arguments.
      const child = spawn(await writeTetheredLauncher(${JSON.stringify(launcher)}, 'sleep'), ['1007'], { stdio: 'ignore', detached: true });
      setTimeout(() => console.log(child.pid), 200);
      setInterval(() => {}, 1000);
    `;
    const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const pid = Number(await new Promise<string>((resolve) => createInterface({ input: parent.stdout! }).once('line', resolve)));
    const program = readProcessTable().find((e) => e.pid === pid)!;
    started.push(program);
    // The launcher and setpriv exec'd into the program.
    expect(program.argv).toEqual(['sleep', '1007']);
    parent.kill('SIGKILL');
    const { left } = await waitForNoProcesses(() => stillRunning([program]), 2000);
    expect(left).toEqual([]);
  });
});
