import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { planEntitlements } from '../plans.ts';
import { applyScenePatch } from '../scene/apply-patch.ts';
import { newProjectDocument } from '../scene/new-document.ts';
import { CHAT_ON_SCREEN_VERTICAL_BOX, isChatOnScreenOverlayUrl, VERTICAL_CANVAS, verticalLayout } from '../scene/vertical.ts';
import { CHAT_ON_SCREEN_TEXT_MAX, chatOnScreenText, showChatOnScreenEndpoint } from './on-screen.ts';

describe('chat on screen', () => {
  it('draws a message on one line of text, cut with an ellipsis past its length, markup kept as the characters it is', () => {
    expect(chatOnScreenText('  hello\n\n<b>x</b>\tthere ')).toBe('hello <b>x</b> there');
    const long = chatOnScreenText('word '.repeat(200));
    expect(long).toHaveLength(CHAT_ON_SCREEN_TEXT_MAX);
    expect(long.endsWith('…')).toBe(true);
  });

  it('knows its overlay page by its path, on any origin, and nothing else', () => {
    const id = randomUUID();
    expect(isChatOnScreenOverlayUrl(`http://127.0.0.1:8080/overlay/chat-on-screen/${id}?key=k&sig=s`)).toBe(true);
    expect(isChatOnScreenOverlayUrl(`https://onair.example/overlay/chat-on-screen/${id}`)).toBe(true);
    expect(isChatOnScreenOverlayUrl(`https://onair.example/overlay/alerts/${id}`)).toBe(false);
    expect(isChatOnScreenOverlayUrl(`https://onair.example/overlay/chat-on-screen/${id}/x`)).toBe(false);
    expect(isChatOnScreenOverlayUrl('not a url')).toBe(false);
  });

  it('refuses a duration outside its range, and takes null for "until taken off"', () => {
    const body = showChatOnScreenEndpoint.body!;
    const messageId = randomUUID();
    expect(body.safeParse({ kind: 'platform', messageId, durationMs: 1000 }).success).toBe(false);
    expect(body.safeParse({ kind: 'platform', messageId, durationMs: 15_000 }).success).toBe(true);
    expect(body.safeParse({ kind: 'guest', messageId, durationMs: null }).success).toBe(true);
    expect(body.safeParse({ kind: 'other', messageId }).success).toBe(false);
  });

  it('on the vertical canvas, sits in a band at the bottom and leaves the camera the whole canvas', () => {
    const ids = { projectId: randomUUID(), sceneId: randomUUID(), watermarkSourceId: randomUUID(), watermarkLayerId: randomUUID() };
    const camera = { sourceId: randomUUID(), layerId: randomUUID(), userId: 'u1' };
    const pageSourceId = randomUUID();
    const pageLayerId = randomUUID();
    const url = `https://onair.example/overlay/chat-on-screen/${ids.projectId}?key=k`;
    const result = applyScenePatch(
      newProjectDocument({ ...ids, resolution: '720p', camera }),
      {
        baseVersion: 0,
        ops: [
          { op: 'addSource', source: { id: pageSourceId, kind: 'webpage', name: 'Chat on screen', settings: { config: { url, mode: 'keep-loaded' } } } },
          { op: 'addLayer', sceneId: ids.sceneId, layer: { id: pageLayerId, sourceId: pageSourceId, x: 0, y: 0, width: 1280, height: 720 } },
        ],
      },
      planEntitlements.Free,
    );
    if (!result.ok) throw new Error(result.rejection.code);
    const boxes = verticalLayout(result.document.scenes[0]!, result.document.sources);
    expect(boxes.get(pageLayerId)).toMatchObject(CHAT_ON_SCREEN_VERTICAL_BOX);
    expect(CHAT_ON_SCREEN_VERTICAL_BOX.y + CHAT_ON_SCREEN_VERTICAL_BOX.height).toBe(VERTICAL_CANVAS.height);
    // Not content: the camera alone still fills the vertical canvas (an ordinary page would take the bottom square).
    expect(boxes.get(camera.layerId)).toMatchObject({ y: 0, height: VERTICAL_CANVAS.height });
  });
});
