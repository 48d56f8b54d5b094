/**
 * Issue 53 item 1: the session runner draws the chat message the api keeps for the project
 * (sessionKeys.chatOnScreen): in the plan it starts the pipeline with, and at once on each chatOnScreen
 * command, outside any plan version. Real Redis; the pipeline host is a recorder
 * (test/lower-third.test.ts draws on a real pipeline).
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '@onair/embedded';
import { testRedisUrl } from '@onair/embedded/test-services';
import { newProjectFromTemplate, planEntitlements, sessionKeys, type ChatOnScreenStored, type RenderPlan } from '@onair/protocol';
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

const stored = (text: string): ChatOnScreenStored => ({
  kind: 'guest',
  messageId: randomUUID(),
  platform: null,
  displayName: 'Host',
  text,
  shownAt: new Date().toISOString(),
  durationMs: null,
});

describe('the session runner and chat on screen', () => {
  it('starts the pipeline with the message on screen, and draws each change told by the api at once, without a plan version', async () => {
    const projectId = randomUUID();
    const doc = newProjectFromTemplate({ projectId, resolution: '720p', ownerId: 'owner-1', templateId: 'Beam', newId: randomUUID }, planEntitlements.Free);
    await redis.hset(sessionKeys.document(projectId), 'version', String(doc.version), 'document', JSON.stringify(doc));
    const first = stored('<b>hello</b>');
    await redis.set(sessionKeys.chatOnScreen(projectId), JSON.stringify(first));

    const started: RenderPlan[] = [];
    const drawn: (RenderPlan['chatOnScreen'] | null)[] = [];
    let plans = 0;
    const host = {
      startSession: ({ plan }: { plan: RenderPlan }) => void started.push(plan),
      applyPlan: () => void plans++,
      replan: () => void plans++,
      setChatOnScreen: (_id: string, message: RenderPlan['chatOnScreen'] | null) => void drawn.push(message),
      session: () => undefined,
      stopSession: async () => undefined,
    } as unknown as SessionHost;
    const runner = new SessionRunner(projectId, {
      redis,
      router: new ChannelRouter(subscriber),
      host,
      box: undefined,
      resolveInput: createInputResolver(new MediaPorts()),
      workerId: 'worker-chat-on-screen',
      logger: pino({ level: 'silent' }),
    });
    await runner.start();
    try {
      expect(started[0]?.chatOnScreen).toEqual({
        messageId: first.messageId,
        shownAt: first.shownAt,
        platform: null,
        displayName: 'Host',
        text: '<b>hello</b>',
      });

      // Another message, told by the api: drawn.
      const second = stored('second');
      await redis.set(sessionKeys.chatOnScreen(projectId), JSON.stringify(second));
      await redis.publish(sessionKeys.commands(projectId), JSON.stringify({ type: 'chatOnScreen' }));
      await waitFor('the second message drawn', async () => (drawn.length >= 1 ? true : undefined), 5000, 20);
      expect(drawn[0]?.messageId).toBe(second.messageId);
      // The same state told twice draws nothing new; taken off (the key gone): nothing drawn.
      await redis.publish(sessionKeys.commands(projectId), JSON.stringify({ type: 'chatOnScreen' }));
      await redis.del(sessionKeys.chatOnScreen(projectId));
      await redis.publish(sessionKeys.commands(projectId), JSON.stringify({ type: 'chatOnScreen' }));
      await waitFor('taken off', async () => (drawn.length >= 2 ? true : undefined), 5000, 20);
      expect(drawn).toEqual([expect.objectContaining({ messageId: second.messageId }), null]);
      expect(plans).toBe(0);
    } finally {
      await runner.stop('stopped');
    }
  });
});
