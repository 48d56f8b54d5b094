import type { Redis } from 'ioredis';
import { SESSION_DOCUMENT_TTL_MS, sessionKeys, type SceneDocument } from '@onair/protocol';

// Writes only a newer version: two api replicas committing patches close together may reach Redis
// in either order, and the older one must not overwrite the newer document.
const WRITE_IF_NEWER = `
local current = tonumber(redis.call('HGET', KEYS[1], 'version') or '-1')
if tonumber(ARGV[1]) > current then
  redis.call('HSET', KEYS[1], 'version', ARGV[1], 'document', ARGV[2])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return 1
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 0`;

/**
 * The scene document as media workers read it: they hold no database credentials, so the api
 * keeps the newest accepted document of every project in Redis. A worker that missed a patch, or
 * picks a session up after a failover, reads this and is exactly up to date.
 */
export async function writeDocumentSnapshot(redis: Redis, document: SceneDocument): Promise<boolean> {
  const written = await redis.eval(
    WRITE_IF_NEWER,
    1,
    sessionKeys.document(document.projectId),
    String(document.version),
    JSON.stringify(document),
    String(SESSION_DOCUMENT_TTL_MS),
  );
  return written === 1;
}
