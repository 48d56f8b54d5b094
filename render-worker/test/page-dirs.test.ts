// Page folders of render workers killed before they could clean up are removed by the next worker;
// folders of running processes and anything else in the temp folder stay.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sweepStalePageDirs } from '../src/page/page-renderer.ts';

describe('stale page folders', () => {
  let dir = '';
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('removes the folders of dead render workers only', async () => {
    dir = await mkdtemp(join(tmpdir(), 'onair-sweep-'));
    // A process that has exited: its pid names a dead worker.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const names = [`onair-page-${dead}-a1`, `onair-page-${process.pid}-b2`, 'onair-page-1-c3', 'onair-page-x-d4', 'onair-other-e5'];
    for (const name of names) await mkdir(join(dir, name, 'profile'), { recursive: true });

    expect(await sweepStalePageDirs(dir)).toBe(1);
    expect((await readdir(dir)).sort()).toEqual(names.slice(1).sort());
    expect(await sweepStalePageDirs(dir)).toBe(0);
  });
});
