import type { Redis } from 'ioredis';
import { nextSceneAfterCountdown, runningCountdownSchema, sessionKeys, type RunningCountdown, type SceneDocument, type SceneOp } from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import { loadCurrentUser, type CurrentUser } from '../http/auth-context.ts';

/** Projects whose countdown scene is running, scored by when it ends (ms); one set for every api replica. */
const DUE_KEY = 'onair:scenes:countdowns';
const runningKey = sessionKeys.countdown;

/** What switches scenes: the scene service, as the project's owner would. */
export interface SceneSwitcher {
  getDocument(user: CurrentUser, projectId: string): Promise<SceneDocument>;
  applyPatch(user: CurrentUser, projectId: string, patch: { baseVersion: number; ops: SceneOp[] }): Promise<unknown>;
}

/**
 * Countdown scenes (issue 19): when a countdown scene becomes the active one, the api notes when it
 * ends (in Redis, shared by every replica); a sweep switches each project whose countdown ended to
 * the scene that follows it, as a patch of the project's owner, so the program and every studio
 * change over whether or not a studio is open. Exactly one replica takes each due countdown (the
 * one whose ZREM removed it), and a countdown left since (another scene shown) switches nothing.
 */
export class Countdowns {
  constructor(private readonly deps: { db: Db; redis: Redis; logger: Logger; now?: () => Date }) {}

  private now(): number {
    return (this.deps.now?.() ?? new Date()).getTime();
  }

  /** After an accepted patch: a countdown starts when its scene was just made active, and stops when another one is. */
  async onAccepted(document: SceneDocument, ops: readonly SceneOp[]): Promise<void> {
    const switched = ops.filter((op) => op.op === 'setActiveScene').at(-1);
    if (!switched) return;
    const scene = document.scenes.find((s) => s.id === document.activeSceneId);
    if (scene?.kind === 'countdown' && scene.countdown) {
      const endsAt = this.now() + scene.countdown.seconds * 1000;
      await this.deps.redis
        .multi()
        .set(runningKey(document.projectId), JSON.stringify({ sceneId: scene.id, endsAt }))
        .zadd(DUE_KEY, endsAt, document.projectId)
        .exec();
    } else {
      await this.deps.redis.multi().del(runningKey(document.projectId)).zrem(DUE_KEY, document.projectId).exec();
    }
  }

  /** When the project's running countdown ends, or null. */
  async endsAt(projectId: string): Promise<number | null> {
    return (await this.running(projectId))?.endsAt ?? null;
  }

  /** The project's running countdown (its scene and end), or null. */
  async running(projectId: string): Promise<RunningCountdown | null> {
    const raw = await this.deps.redis.get(runningKey(projectId));
    return raw ? runningCountdownSchema.parse(JSON.parse(raw)) : null;
  }

  /** The running countdown as the studio shows it: its scene, its end and the time left now. */
  async view(projectId: string): Promise<{ sceneId: string; endsAt: string; remainingMs: number } | null> {
    const running = await this.running(projectId);
    if (!running) return null;
    return { sceneId: running.sceneId, endsAt: new Date(running.endsAt).toISOString(), remainingMs: Math.max(0, running.endsAt - this.now()) };
  }

  /** Switches every project whose countdown has ended; resolves with how many switched. */
  async sweep(scenes: SceneSwitcher): Promise<number> {
    const due = await this.deps.redis.zrangebyscore(DUE_KEY, 0, this.now());
    let switched = 0;
    for (const projectId of due) {
      if ((await this.deps.redis.zrem(DUE_KEY, projectId)) !== 1) continue;
      try {
        if (await this.finish(scenes, projectId)) switched++;
      } catch (err) {
        this.deps.logger.warn({ projectId, err: (err as Error).message }, 'countdown: the next scene could not be shown');
      }
    }
    return switched;
  }

  private async finish(scenes: SceneSwitcher, projectId: string): Promise<boolean> {
    const raw = await this.deps.redis.get(runningKey(projectId));
    await this.deps.redis.del(runningKey(projectId));
    if (!raw) return false;
    const { sceneId } = JSON.parse(raw) as { sceneId: string };
    const project = await this.deps.db.project.findUnique({ where: { id: projectId }, select: { ownerId: true } });
    const owner = project ? await loadCurrentUser(this.deps.db, project.ownerId) : null;
    if (!owner) return false;
    const doc = await scenes.getDocument(owner, projectId);
    if (doc.activeSceneId !== sceneId) return false;
    const next = nextSceneAfterCountdown(doc, sceneId);
    if (!next) return false;
    await scenes.applyPatch(owner, projectId, { baseVersion: doc.version, ops: [{ op: 'setActiveScene', sceneId: next }] });
    this.deps.logger.info({ projectId, from: sceneId, to: next }, 'countdown ended: next scene shown');
    return true;
  }
}
