/**
 * Rounded sources (issue 38 item 4, spec §9: corner radius 2% of the width): a camera tile is drawn
 * with round corners on both canvases, what is under it showing in the corners, and a layout change
 * while live rounds, squares or resizes it in the running pipeline. Real pipeline process, real
 * nginx-rtmp, frames read back with ffmpeg; nothing here is about timing.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { waitFor } from '@onair/embedded';
import {
  applyScenePatch,
  layerCornerRadius,
  newProjectDocument,
  planEntitlements,
  sceneToRenderPlan,
  type PlanInput,
  type PlanOutput,
  type SceneDocument,
  type SceneOp,
  type Source,
} from '@onair/protocol';
import { useSharedFixture } from './helpers/session-fixture.ts';
import { grabFrame, longestVideoGap, near, pixel, watchPackets, type Frame } from './helpers/stream-probe.ts';

const suite = useSharedFixture();
const RED = [255, 0, 0];
const BLUE = [0, 0, 255];

/** A 720p project: the host's camera at its default place (40,40 640×360) over a full-canvas game. */
function project() {
  const ids = { projectId: randomUUID(), sceneId: randomUUID(), watermarkSourceId: randomUUID(), watermarkLayerId: randomUUID() };
  const camera = { sourceId: randomUUID(), layerId: randomUUID(), userId: 'host' };
  const gameSourceId = randomUUID();
  const patched = applyScenePatch(
    newProjectDocument({ ...ids, resolution: '720p', camera }),
    {
      baseVersion: 0,
      ops: [
        { op: 'addSource', source: { id: gameSourceId, kind: 'game' } },
        { op: 'addLayer', sceneId: ids.sceneId, layer: { id: randomUUID(), sourceId: gameSourceId, x: 0, y: 0, width: 1280, height: 720, zIndex: 0 } },
      ],
    },
    planEntitlements.Free,
  );
  if (!patched.ok) throw new Error(patched.rejection.message);
  return { doc: patched.document, sceneId: ids.sceneId, camera };
}

/** The camera is solid red (a 16:9 source of another size than its tile), the game solid blue under it; the logo is left out. */
const resolve = (source: Source): PlanInput | undefined => {
  if (source.kind === 'webcam') return { id: source.id, kind: 'test-pattern', pattern: 'solid', color: 0xff0000, width: 960, height: 540 };
  if (source.kind === 'game') return { id: source.id, kind: 'test-pattern', pattern: 'solid', color: 0x0000ff, width: 640, height: 360 };
  return undefined;
};

function edit(doc: SceneDocument, ops: SceneOp[]): SceneDocument {
  const result = applyScenePatch(doc, { baseVersion: doc.version, ops }, planEntitlements.Free);
  if (!result.ok) throw new Error(result.rejection.message);
  return result.document;
}

const isRed = (frame: Frame, x: number, y: number) => near(pixel(frame, x, y), RED);
const isBlue = (frame: Frame, x: number, y: number) => near(pixel(frame, x, y), BLUE);

/** Each corner of a box: the pixel one in from its corner (outside a radius of 12 px or more) and one well inside. */
function corners(box: { x: number; y: number; width: number; height: number }) {
  const [l, t, r, b] = [box.x + 1, box.y + 1, box.x + box.width - 2, box.y + box.height - 2];
  return {
    cut: [
      [l, t],
      [r, t],
      [l, b],
      [r, b],
    ] as [number, number][],
    // On the straight edges, just inside: the picture, not the corner.
    edge: [
      [box.x + 2, box.y + Math.round(box.height / 2)],
      [box.x + Math.round(box.width / 2), box.y + 2],
    ] as [number, number][],
    centre: [box.x + Math.round(box.width / 2), box.y + Math.round(box.height / 2)] as [number, number],
  };
}

describe('rounded sources', () => {
  it('draws a camera tile with round corners on both canvases, the game under it showing there, and squares it live', async () => {
    const server = await suite.fx.rtmp();
    const [kH, kV] = [suite.key(), suite.key()];
    const base = `rtmp://127.0.0.1:${server.port}/live`;
    const outputs: PlanOutput[] = [
      { id: 'wide', url: base, key: kH, canvas: 'horizontal' },
      { id: 'tall', url: base, key: kV, canvas: 'vertical' },
    ];
    const project0 = project();
    const { sceneId, camera } = project0;
    // On the vertical canvas the camera is a tile inside the canvas too.
    const verticalBox = { x: 60, y: 700, width: 600, height: 338 };
    const doc = edit(project0.doc, [{ op: 'updateLayerVertical', sceneId, layerId: camera.layerId, changes: verticalBox }]);
    const tile = { x: 40, y: 40, width: 640, height: 360 };
    expect(layerCornerRadius('webcam', tile, { width: 1280, height: 720 })).toBeCloseTo(12.8);

    const plan = sceneToRenderPlan(doc, resolve, outputs);
    suite.fx.host.startSession({ sessionId: 'rounded', planVersion: doc.version, plan });
    const grab = () => Promise.all([grabFrame(server.url(kH), 1280, 720, 3), grabFrame(server.url(kV), 720, 1280, 3)]);
    let watch: ReturnType<typeof watchPackets> | undefined;
    try {
      await suite.fx.waitForOutput('rounded', 'wide', 'live');
      await suite.fx.waitForOutput('rounded', 'tall', 'live');
      // The program's video packets while corners are added, removed and redrawn: no hole in them.
      watch = watchPackets(server.url(kH));
      const h = corners(tile);
      const v = corners(verticalBox);

      const [wide, tall] = await waitFor(
        'the rounded camera on both canvases',
        async () => {
          const frames = await grab();
          const [f, g] = frames;
          if (process.env.ROUND_DEBUG)
            console.warn(
              'wide',
              [h.centre, ...h.cut, ...h.edge].map(([x, y]) => pixel(f, x, y).join(',')).join(' | '),
              'tall',
              [v.centre, ...v.cut, ...v.edge].map(([x, y]) => pixel(g, x, y).join(',')).join(' | '),
            );
          return isRed(f, ...h.centre) && isRed(g, ...v.centre) && h.cut.every(([x, y]) => isBlue(f, x, y)) && v.cut.every(([x, y]) => isBlue(g, x, y))
            ? frames
            : undefined;
        },
        30_000,
        300,
      );
      // The picture reaches its straight edges; the game's own corners (full frame) are not rounded.
      for (const [x, y] of h.edge) expect(isRed(wide, x, y), `wide ${x},${y} ${pixel(wide, x, y).join(',')}`).toBe(true);
      for (const [x, y] of v.edge) expect(isRed(tall, x, y), `tall ${x},${y} ${pixel(tall, x, y).join(',')}`).toBe(true);
      expect(isBlue(wide, 0, 0) && isBlue(wide, 1279, 719)).toBe(true);

      // Made full frame live: its corners are the canvas's, square; the same process goes on.
      const full = edit(doc, [{ op: 'updateLayer', sceneId, layerId: camera.layerId, changes: { x: 0, y: 0, width: 1280, height: 720 } }]);
      suite.fx.host.applyPlan('rounded', full.version, sceneToRenderPlan(full, resolve, outputs));
      await waitFor(
        'the full-frame camera, square',
        async () => {
          const [f] = await grab();
          return isRed(f, 1, 1) && isRed(f, 1278, 718) ? true : undefined;
        },
        20_000,
        300,
      );

      // Back to its tile: rounded again at once (the same size, the same rounded branch).
      const again = edit(full, [{ op: 'updateLayer', sceneId, layerId: camera.layerId, changes: tile }]);
      suite.fx.host.applyPlan('rounded', again.version, sceneToRenderPlan(again, resolve, outputs));
      await waitFor(
        'the tile rounded again',
        async () => {
          const [f] = await grab();
          return isRed(f, ...h.centre) && h.cut.every(([x, y]) => isBlue(f, x, y)) && h.edge.every(([x, y]) => isRed(f, x, y)) ? true : undefined;
        },
        20_000,
        300,
      );

      // A tile elsewhere, of another size: rounded at 2% of its new width (radius 16).
      const small = { x: 400, y: 200, width: 800, height: 450 };
      const moved = edit(again, [{ op: 'updateLayer', sceneId, layerId: camera.layerId, changes: small }]);
      suite.fx.host.applyPlan('rounded', moved.version, sceneToRenderPlan(moved, resolve, outputs));
      const s = corners(small);
      await waitFor(
        'the moved tile, rounded',
        async () => {
          const [f] = await grab();
          return isRed(f, ...s.centre) && s.cut.every(([x, y]) => isBlue(f, x, y)) && s.edge.every(([x, y]) => isRed(f, x, y)) ? true : undefined;
        },
        20_000,
        300,
      );
      expect(suite.fx.host.session('rounded')?.restarts).toBe(0);
      const packets = watch.packets.filter((p) => p.stream === 'video');
      expect(packets.length).toBeGreaterThan(30);
      // Stream time, not the wall clock: the encoder got a frame every 1/30 s through every change.
      expect(longestVideoGap(packets)).toBeLessThan(0.2);
    } finally {
      if (process.env.ROUND_DEBUG)
        console.warn(
          suite.fx.logs
            .filter((l) => /error|warn|fail|not-negotiated/i.test(l))
            .slice(-30)
            .join('\n'),
        );
      watch?.stop();
      await suite.fx.host.stopSession('rounded');
    }
  });
});
