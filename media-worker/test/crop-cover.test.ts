/**
 * A layer's crop and the cover fit in the program (issue 38: layouts fit faces by covering their
 * tile, centred; the editor draws a picture with object-fit: cover): the worker cuts the layer's
 * crop from the source's frames, then what is left to the tile's aspect, on each canvas with that
 * canvas's own crop, and changes it live. The camera is a real VP8 RTP feed whose sender changes
 * resolution on the way, as WebRTC senders do: the picture must keep reaching both canvases
 * (this is what stopped a rounded camera before: shapewipe refused the new size). Real pipeline
 * process, real nginx-rtmp, frames read back with ffmpeg.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, waitFor } from '@onair/embedded';
import {
  applyScenePatch,
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
const PLACEHOLDER = join(import.meta.dirname, '..', 'assets', 'placeholder-camera.png');
const RED = [255, 0, 0];
const GREEN = [0, 255, 0];
const YELLOW = [255, 255, 0];
const BLUE = [0, 0, 255];

/**
 * The sender's picture, `k` times 640×360 of red framed by a yellow band above and below (60 × k
 * each) and a green band on the left (160 × k): 800×480 at k = 1, a 5:3 frame whose red part is
 * 16:9. Cropping the green band leaves 4:3, and covering a 16:9 tile then cuts the yellow bands:
 * only red is left.
 */
function sender(port: number, k: number): ChildProcess {
  const [w, h, band, left] = [640 * k, 360 * k, 60 * k, 160 * k].map(Math.round);
  const description =
    `videotestsrc is-live=true pattern=solid-color foreground-color=0xffff0000 ! video/x-raw,format=AYUV,width=${w},height=${h},framerate=30/1 ` +
    `! videobox top=-${band} bottom=-${band} fill=yellow ! videobox left=-${left} fill=green ! videoconvert ! video/x-raw,format=I420 ` +
    `! vp8enc deadline=1 keyframe-max-dist=15 ! rtpvp8pay pt=96 ! udpsink host=127.0.0.1 port=${port}`;
  return spawn('gst-launch-1.0', ['-q', ...description.split(' ')], { stdio: 'ignore' });
}

function edit(doc: SceneDocument, ops: SceneOp[]): SceneDocument {
  const result = applyScenePatch(doc, { baseVersion: doc.version, ops }, planEntitlements.Free);
  if (!result.ok) throw new Error(result.rejection.message);
  return result.document;
}

const is = (frame: Frame, [x, y]: [number, number], colour: number[]) => near(pixel(frame, x, y), colour, 20);

/** Points just inside a box's left, top and bottom edges (halfway along them), and its centre. */
function probes(box: { x: number; y: number; width: number; height: number }, inset: number) {
  const mx = box.x + Math.round(box.width / 2);
  const my = box.y + Math.round(box.height / 2);
  return {
    left: [box.x + inset, my] as [number, number],
    top: [mx, box.y + inset] as [number, number],
    bottom: [mx, box.y + box.height - 1 - inset] as [number, number],
    centre: [mx, my] as [number, number],
  };
}

describe('crop and cover', () => {
  it("cuts each canvas's crop of a camera, covers its tile with what is left, live, through the sender's resolution changes", async () => {
    const server = await suite.fx.rtmp();
    const [kH, kV] = [suite.key(), suite.key()];
    const base = `rtmp://127.0.0.1:${server.port}/live`;
    const outputs: PlanOutput[] = [
      { id: 'wide', url: base, key: kH, canvas: 'horizontal' },
      { id: 'tall', url: base, key: kV, canvas: 'vertical' },
    ];
    const ids = { projectId: randomUUID(), sceneId: randomUUID(), watermarkSourceId: randomUUID(), watermarkLayerId: randomUUID() };
    const camera = { sourceId: randomUUID(), layerId: randomUUID(), userId: 'host' };
    const gameSourceId = randomUUID();
    const { sceneId } = ids;
    const tile = { x: 40, y: 40, width: 640, height: 360 };
    const verticalBox = { x: 60, y: 700, width: 600, height: 338 };
    const cropLeft = { top: 0, right: 0, bottom: 0, left: 160 };
    // The host's camera at its default tile over a full-frame game (blue); on the vertical canvas a
    // tile too; both canvases crop the green band off.
    const doc = edit(newProjectDocument({ ...ids, resolution: '720p', camera }), [
      { op: 'addSource', source: { id: gameSourceId, kind: 'game' } },
      { op: 'addLayer', sceneId, layer: { id: randomUUID(), sourceId: gameSourceId, x: 0, y: 0, width: 1280, height: 720, zIndex: 0 } },
      { op: 'updateLayer', sceneId, layerId: camera.layerId, changes: { crop: cropLeft } },
      { op: 'updateLayerVertical', sceneId, layerId: camera.layerId, changes: { ...verticalBox, crop: cropLeft } },
    ]);
    const port = await freePort();
    const resolve = (source: Source): PlanInput | undefined => {
      if (source.kind === 'webcam')
        return { id: source.id, kind: 'rtp', video: { codecs: [{ encoding: 'VP8', port, payloadType: 96 }], placeholder: PLACEHOLDER } };
      if (source.kind === 'game') return { id: source.id, kind: 'test-pattern', pattern: 'solid', color: 0x0000ff, width: 640, height: 360 };
      return undefined;
    };

    let feed = sender(port, 1);
    suite.fx.host.startSession({ sessionId: 'crop', planVersion: doc.version, plan: sceneToRenderPlan(doc, resolve, outputs) });
    const grab = () => Promise.all([grabFrame(server.url(kH), 1280, 720, 3), grabFrame(server.url(kV), 720, 1280, 3)]);
    const h = probes(tile, 4);
    const v = probes(verticalBox, 4);
    const seen = (frames: Frame[]) =>
      `wide ${Object.values(h).map((p) => pixel(frames[0]!, ...p).join(','))} tall ${Object.values(v).map((p) => pixel(frames[1]!, ...p).join(','))}`;
    const until = async (what: string, ok: (wide: Frame, tall: Frame) => boolean) => {
      let last = '';
      await waitFor(
        what,
        async () => {
          const frames = await grab();
          last = seen(frames);
          return ok(frames[0]!, frames[1]!) ? true : undefined;
        },
        30_000,
        300,
      ).catch((err: unknown) => {
        throw new Error(`${(err as Error).message}; last: ${last}`);
      });
    };
    let watch: ReturnType<typeof watchPackets> | undefined;
    try {
      await suite.fx.waitForOutput('crop', 'wide', 'live');
      await suite.fx.waitForOutput('crop', 'tall', 'live');
      watch = watchPackets(server.url(kH));
      // Cropped and covered: red to the tile's edges on both canvases, no green, no yellow.
      const allRed = (f: Frame, p: typeof h) => is(f, p.centre, RED) && is(f, p.left, RED) && is(f, p.top, RED) && is(f, p.bottom, RED);
      await until('the cropped camera covering its tile on both canvases', (wide, tall) => allRed(wide, h) && allRed(tall, v));

      // The horizontal crop taken off live: the green band shows on the tile's left, what is left of
      // the yellow bands (the 5:3 frame covered in 16:9) above and below; the vertical tile keeps its crop.
      const uncropped = edit(doc, [{ op: 'updateLayer', sceneId, layerId: camera.layerId, changes: { crop: { top: 0, right: 0, bottom: 0, left: 0 } } }]);
      suite.fx.host.applyPlan('crop', uncropped.version, sceneToRenderPlan(uncropped, resolve, outputs));
      const framed = (f: Frame) => is(f, h.left, GREEN) && is(f, h.top, YELLOW) && is(f, h.bottom, YELLOW) && is(f, h.centre, RED);
      await until('the uncropped camera on the wide canvas, the vertical one still cropped', (wide, tall) => framed(wide) && allRed(tall, v));

      // The sender halves its size (400×240), then comes back at 3/4 (600×360), as WebRTC senders
      // step: the picture goes on on both canvases, rounded and cut anew for each size.
      for (const k of [0.5, 0.75]) {
        feed.kill('SIGKILL');
        feed = sender(port, k);
        await until(`the camera at ${k} of its size on both canvases`, (wide, tall) => framed(wide) && allRed(tall, v));
      }
      // The game under the tile shows in its rounded corners all along (the layer is a rounded kind).
      const [wide] = await grab();
      expect(is(wide, [tile.x + 1, tile.y + 1], BLUE), pixel(wide, tile.x + 1, tile.y + 1).join(',')).toBe(true);
      expect(suite.fx.host.session('crop')?.restarts).toBe(0);
      const packets = watch.packets.filter((p) => p.stream === 'video');
      expect(packets.length).toBeGreaterThan(30);
      expect(longestVideoGap(packets)).toBeLessThan(0.2);
    } finally {
      watch?.stop();
      feed.kill('SIGKILL');
      await suite.fx.host.stopSession('crop');
    }
  });
});
