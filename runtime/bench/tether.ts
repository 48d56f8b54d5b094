/**
 * How fast a program started from a process ends when that process is killed with -9, for the two
 * ways OnAir has had to tie a program to its parent: `npx tsx bench/tether.ts` from runtime/
 * (BENCH_KILLS, default 15 per way). Each round starts a Node parent that starts `sleep` one way,
 * SIGKILLs the parent and polls /proc/<pid>/stat of the sleep until it is gone or a zombie.
 * - tether: TetheredProcess (setpriv --pdeathsig KILL, what src/process/tethered-process.ts does);
 * - lifeline: the `sh` lifeline the render worker used before (a shell holding a pipe from the
 *   parent kills the program when the pipe closes), kept here only as the measured alternative.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const KILLS = Number(process.env.BENCH_KILLS ?? 15);
const tetheredModule = new URL('../src/process/tethered-process.ts', import.meta.url).href;
const LIFELINE = [
  'exec 9<&0',
  '"$@" 9<&- </dev/null &',
  'child=$!',
  '( while read -r _ <&9; do :; done; kill -KILL "$child" 2>/dev/null ) 9<&9 &',
  'watch=$!',
  'exec 9<&-',
  'wait "$child"; rc=$?',
  'kill "$watch" 2>/dev/null',
  'exit $rc',
].join('\n');

const parents = {
  tether: `
    const { TetheredProcess } = await import(${JSON.stringify(tetheredModule)});
    const p = new TetheredProcess('sleep', ['1000']);
    setTimeout(() => console.log(p.pid), 300);`,
  lifeline: `
    import { spawn } from 'node:child_process';
    spawn('sh', ['-c', ${JSON.stringify(LIFELINE)}, 'lifeline', 'sleep', '1000'], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
    setTimeout(() => console.log('started'), 300);`,
};

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The pid of the `sleep 1000` below `parent` (the lifeline puts a shell between them). */
function sleepBelow(parent: number): number | undefined {
  const children = (pid: number): number[] => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ').filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  const queue = [parent];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8') === 'sleep\0' + '1000\0') return pid;
    } catch {
      // gone
    }
    queue.push(...children(pid));
  }
  return undefined;
}

async function round(way: keyof typeof parents): Promise<number> {
  const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `${parents[way]}\nsetInterval(() => {}, 1000);`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((r) => createInterface({ input: parent.stdout! }).once('line', r));
  const program = sleepBelow(parent.pid!);
  if (program === undefined) throw new Error(`${way}: no sleep found below ${parent.pid}`);
  const started = performance.now();
  parent.kill('SIGKILL');
  while (alive(program)) {
    if (performance.now() - started > 3000) {
      process.kill(program, 'SIGKILL');
      throw new Error(`${way}: the program outlived its parent by 3 s`);
    }
  }
  return performance.now() - started;
}

for (const way of ['tether', 'lifeline'] as const) {
  const times: number[] = [];
  for (let i = 0; i < KILLS; i += 1) times.push(await round(way));
  times.sort((a, b) => a - b);
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  process.stdout.write(`${way}: median ${ms(times[Math.floor(times.length / 2)]!)}, min ${ms(times[0]!)}, max ${ms(times.at(-1)!)} over ${KILLS} kills\n`);
}
