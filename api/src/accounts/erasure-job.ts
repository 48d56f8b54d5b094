import type { Redis } from 'ioredis';
import { queues } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { SweepJob } from '../jobs/sweep-job.ts';
import type { AccountDeletionService } from './deletion-service.ts';

/**
 * The scheduled erasure (partner spec §4): once every interval across all api replicas, the
 * accounts whose retention window has passed are erased. `runNow()` resolves with how many.
 */
export class AccountErasureJob extends SweepJob<number> {
  constructor(deps: { redis: Redis; logger: Logger; deletion: AccountDeletionService; everyMs: number; prefix?: string }) {
    super({ ...deps, queue: queues.accountErasure, schedulerId: 'erase-due-accounts', what: 'account erasure sweep', run: () => deps.deletion.eraseDue() });
  }
}
