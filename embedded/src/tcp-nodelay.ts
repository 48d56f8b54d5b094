import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { access, mkdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);
const SOURCE = fileURLToPath(new URL('../native/tcp-nodelay.c', import.meta.url));
/** Built objects live with the project's other installed tools, never in the source tree. */
const TOOLS = fileURLToPath(new URL('../../.tools', import.meta.url));

let built: Promise<string> | undefined;

/**
 * The preload library that gives every connection a process accepts TCP_NODELAY
 * (native/tcp-nodelay.c says why nginx-rtmp needs it), built with the system C compiler on first
 * use and kept in `.tools/` under the hash of its source. Concurrent callers (test files start
 * servers in parallel) share one build per process; across processes the rename makes it atomic.
 */
export function tcpNoDelayPreload(): Promise<string> {
  built ??= build().catch((err: unknown) => {
    built = undefined;
    throw err;
  });
  return built;
}

async function build(): Promise<string> {
  const source = await readFile(SOURCE);
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 12);
  const target = join(TOOLS, `tcp-nodelay-${hash}.so`);
  try {
    await access(target);
    return target;
  } catch {
    // not built yet
  }
  await mkdir(TOOLS, { recursive: true });
  const partial = `${target}.${process.pid}.partial`;
  try {
    await execFileAsync('cc', ['-shared', '-fPIC', '-O2', '-o', partial, SOURCE, '-ldl'], { timeout: 60_000 });
    await rename(partial, target);
  } catch (err) {
    await rm(partial, { force: true });
    throw new Error(`could not build ${SOURCE} with cc (./onair installs the compiler): ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  return target;
}
