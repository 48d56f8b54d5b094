// What the tests of real worker processes do as the api and operators would: queue a project's
// session with its document and sealed outputs, read who owns it, and kill what is left.
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { sessionKeys, sessionOwnerSchema, type PlanOutput, type SceneDocument, type SessionOwner } from '@onair/protocol';
import type { SecretBox } from '@onair/runtime';
import type { WorkerUnderTest } from '@onair/runtime/testkit';

/** Stores the project's document (and live outputs, sealed as the api seals them) and queues its session. */
export async function queueSession(queue: Queue, redis: Redis, doc: SceneDocument, live?: { box: SecretBox; outputs: PlanOutput[] }): Promise<void> {
  await redis.hset(sessionKeys.document(doc.projectId), 'version', String(doc.version), 'document', JSON.stringify(doc));
  if (live) await redis.set(sessionKeys.outputs(doc.projectId), live.box.seal(JSON.stringify(live.outputs), `session:${doc.projectId}`));
  await queue.add(
    'session',
    { projectId: doc.projectId, requestedAt: new Date().toISOString() },
    { jobId: doc.projectId, removeOnComplete: true, removeOnFail: true },
  );
}

export async function readOwner(redis: Redis, projectId: string): Promise<SessionOwner | undefined> {
  const raw = await redis.get(sessionKeys.owner(projectId));
  return raw ? sessionOwnerSchema.parse(JSON.parse(raw)) : undefined;
}

/** SIGKILLs every worker still running (a test's end, or a retry starting clean). */
export function killWorkers(workers: readonly WorkerUnderTest[]): void {
  for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
}
