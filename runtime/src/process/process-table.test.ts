import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { leftoverProcesses, readProcessTable } from './process-table.ts';
import { killProcesses } from './processes.testkit.ts';

const marker = `ONAIR_PROCESS_TABLE_TEST=${randomUUID()}`;
const found = () => leftoverProcesses({ environment: marker });

// After each attempt: a retry must not find the first attempt's processes.
afterEach(() => killProcesses(found()));

describe('leftoverProcesses', () => {
  it('finds orphans of this process by the environment they inherited, their command line and their group, not among the descendants', {
    timeout: 30_000,
  }, async () => {
    // A shell that starts another in the background and exits at once: that one and its sleep are
    // re-parented.
    const name = randomUUID();
    const [key, value] = marker.split('=') as [string, string];
    spawnSync('sh', ['-c', `sh -c 'sleep 1005; : ${name}' >/dev/null 2>&1 &`], { env: { ...process.env, [key]: value } });
    // The background shell starts the inner one, which forks its sleep, each a moment later (under
    // a heavy load more than 2 s later): waited for until they are there, not for a set time.
    const settled = (list: ReturnType<typeof found>) => list.length === 2 && list.some((e) => e.argv[0] === 'sleep');
    let orphans = found();
    for (let i = 0; i < 1000 && !settled(orphans); i += 1) {
      await new Promise((r) => setTimeout(r, 20));
      orphans = found();
    }
    expect(orphans.map((e) => e.argv[0]).sort()).toEqual(['sh', 'sleep']);
    for (const orphan of orphans) expect(orphan.ppid).not.toBe(process.pid);
    const shell = orphans.find((e) => e.argv[0] === 'sh')!;
    expect(leftoverProcesses({ mentioning: [name] }).map((e) => e.pid)).toEqual([shell.pid]);
    expect(leftoverProcesses({ groups: [shell.pgid] }).map((e) => e.pid)).toEqual(expect.arrayContaining(orphans.map((e) => e.pid)));
    const mine = leftoverProcesses({ descendantsOf: [process.pid] }).map((e) => e.pid);
    for (const orphan of orphans) expect(mine).not.toContain(orphan.pid);
    expect(readProcessTable().find((e) => e.pid === shell.pid)?.state).not.toBe('Z');

    killProcesses(orphans);
  });
});
