// `prisma generate` only needs the schema engine binary to exist, not to run: point it at any
// existing file so the CLI does not try to download one (see shared/ENVIRONMENT.md).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const env = { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath };
const result = spawnSync('npx', ['prisma', 'generate'], { cwd: root, env, stdio: 'inherit' });
process.exit(result.status ?? 1);
