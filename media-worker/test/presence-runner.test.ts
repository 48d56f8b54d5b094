/**
 * Issue 51 item 4: the session runner plans with who is there (the WebRTC side's people, the
 * ingest's feed) and plans the same version again when that changes. Real Redis; the pipeline host
 * is a recorder (test/presence.test.ts plays such plans on a real pipeline).
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '@onair/embedded';
import { testRedisUrl } from '@onair/embedded/test-services';
import { applyScenePatchFollowingLayouts, feedArrivedOps, newProjectFromTemplate, planEntitlements, sessionKeys, type RenderPlan } from '@onair/protocol';
import { ChannelRouter } from '../src/placement/channel-router.ts';
import { createInputResolver } from '../src/placement/input-resolver.ts';
import { SessionRunner } from '../src/placement/session-runner.ts';
import type { SessionHost } from '../src/session/session-host.ts';
import { MediaPorts } from '../src/webrtc/media-ports.ts';

const redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
const subscriber = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
afterAll(() => {
  redis.disconnect();
  subscriber.disconnect();
});

describe('the session runner and who is there', () => {
  it('plans a new project a feed arrived at with the feed there and nobody in the studio, and again as the host comes, the feed goes and the host leaves', async () => {
    const projectId = randomUUID();
    const made = newProjectFromTemplate({ projectId, resolution: '720p', ownerId: 'owner-1', templateId: 'Beam', newId: randomUUID }, planEntitlements.Free);
    const arrived = applyScenePatchFollowingLayouts(made, { baseVersion: 0, ops: feedArrivedOps(made, randomUUID) }, planEntitlements.Free);
    if (!arrived.ok) throw new Error(arrived.rejection.code);
    const doc = arrived.document;
    await redis.hset(sessionKeys.document(projectId), 'version', String(doc.version), 'document', JSON.stringify(doc));
    const camera = doc.sources.find((s) => s.kind === 'webcam')!.id;
    const game = doc.sources.find((s) => s.kind === 'game')!.id;

    const people = new Set<string>();
    let feeding = true;
    const sent: { how: 'start' | 'replan'; plan: RenderPlan }[] = [];
    const host = {
      startSession: ({ plan }: { plan: RenderPlan }) => void sent.push({ how: 'start', plan }),
      applyPlan: () => undefined,
      replan: (_id: string, plan: RenderPlan) => void sent.push({ how: 'replan', plan }),
      session: () => undefined,
      stopSession: async () => undefined,
    } as unknown as SessionHost;
    const runner = new SessionRunner(projectId, {
      redis,
      router: new ChannelRouter(subscriber),
      host,
      box: undefined,
      resolveInput: createInputResolver(new MediaPorts()),
      workerId: 'worker-presence',
      logger: pino({ level: 'silent' }),
      media: {
        openSession: async () => ({ port: 40_100, payloadType: 96, width: 640, height: 360, bitrateKbps: 800 }),
        closeSession: async () => undefined,
        participantCount: () => people.size,
        presentSources: () => people,
      },
      ingest: { open: async () => undefined, update: () => undefined, close: async () => undefined, feeding: () => feeding },
    });
    await runner.start();
    try {
      const placement = (plan: RenderPlan, inputId: string) =>
        plan.scenes.find((s) => s.id === plan.activeSceneId)!.placements.find((p) => p.inputId === inputId)!;
      // Started: the feed there, the host not: no card for them, the game full frame.
      expect(sent[0]!.how).toBe('start');
      expect(sent[0]!.plan.absentInputs).toEqual([camera]);
      expect(placement(sent[0]!.plan, game)).toMatchObject({ x: 0, y: 0, width: 1280, height: 720, visible: true });
      // The host opens the studio: planned again, their camera in the corner over the game.
      people.add(camera);
      const withHost = await waitFor('a plan with the host there', async () => sent.find((s, i) => i > 0 && s.how === 'replan'), 15_000, 100);
      expect(withHost.plan.absentInputs).toEqual([]);
      expect(placement(withHost.plan, camera)).toMatchObject({ x: 936, y: 516, width: 320, height: 180, visible: true });
      // The console is switched off: the host full frame.
      feeding = false;
      const count = sent.length;
      const noFeed = await waitFor('a plan without the feed', async () => sent.slice(count).find((s) => s.how === 'replan'), 15_000, 100);
      expect(placement(noFeed.plan, camera)).toMatchObject({ x: 0, y: 0, width: 1280, height: 720, visible: true });
      expect(placement(noFeed.plan, game).visible).toBe(false);
      // The host leaves too: nobody and nothing there, the scene as arranged (the dropped game
      // where it was, so the holding slate covers it), and no card for the host.
      const before = sent.length;
      people.delete(camera);
      const empty = await waitFor('a plan with nobody there', async () => sent.slice(before).find((s) => s.how === 'replan'), 15_000, 100);
      expect(empty.plan.absentInputs).toEqual([camera]);
      expect(placement(empty.plan, game)).toMatchObject({ x: 0, y: 0, width: 1280, height: 720, visible: true });
      // Nothing changes: nothing is sent.
      const settled = sent.length;
      await new Promise((r) => setTimeout(r, 1500));
      expect(sent.length).toBe(settled);
    } finally {
      await runner.stop('stopped');
    }
  });
});
