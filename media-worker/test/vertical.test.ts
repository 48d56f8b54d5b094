/**
 * Vertical output (issue 20): one session, one scene, a horizontal and a vertical destination.
 * Real pipeline process, real nginx-rtmp, read back with ffprobe and ffmpeg frames.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { waitFor } from '@onair/embedded';
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
import { grabFrame, near, pixel, probeStream, type Frame } from './helpers/stream-probe.ts';

const suite = useSharedFixture();
const RED = [255, 0, 0];

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

/** The camera is a solid red picture, the game a moving ball on black; the logo is left out. */
const resolve = (source: Source): PlanInput | undefined => {
  if (source.kind === 'webcam') return { id: source.id, kind: 'test-pattern', pattern: 'solid', color: 0xff0000, width: 640, height: 360 };
  if (source.kind === 'game') return { id: source.id, kind: 'test-pattern', pattern: 'ball', color: 0, width: 640, height: 360, toneHz: 440 };
  return undefined;
};

function edit(doc: SceneDocument, ops: SceneOp[]): SceneDocument {
  const result = applyScenePatch(doc, { baseVersion: doc.version, ops }, planEntitlements.Free);
  if (!result.ok) throw new Error(result.rejection.message);
  return result.document;
}

const isRed = (frame: Frame, x: number, y: number) => near(pixel(frame, x, y), RED);

describe('vertical output', () => {
  it('sends 1280×720 to the horizontal destination and 720×1280 to the vertical one, each with its own layout', async () => {
    const server = await suite.fx.rtmp();
    const [kH, kV] = [suite.key(), suite.key()];
    const base = `rtmp://127.0.0.1:${server.port}/live`;
    const outputs: PlanOutput[] = [
      { id: 'wide', url: base, key: kH, canvas: 'horizontal' },
      { id: 'tall', url: base, key: kV, canvas: 'vertical' },
    ];
    const { doc, sceneId, camera } = project();
    suite.fx.host.startSession({ sessionId: 'vertical', planVersion: doc.version, plan: sceneToRenderPlan(doc, resolve, outputs) });
    try {
      await suite.fx.waitForOutput('vertical', 'wide', 'live');
      await suite.fx.waitForOutput('vertical', 'tall', 'live');

      const [wide, tall] = await Promise.all([probeStream(server.url(kH)), probeStream(server.url(kV))]);
      expect(wide.video).toMatchObject({ codec: 'h264', width: 1280, height: 720 });
      expect(tall.video).toMatchObject({ codec: 'h264', width: 720, height: 1280 });
      // One AAC encode shared by both muxers.
      expect(tall.audio).toEqual({ codec: 'aac', sampleRate: 48000, channels: 2 });

      // The camera where each canvas puts it: 40,40 640×360 on the horizontal one; the derived
      // vertical layout's top band (0..560, filling the width) on the vertical one, the game below.
      const [h1, v1] = await Promise.all([grabFrame(server.url(kH), 1280, 720, 5), grabFrame(server.url(kV), 720, 1280, 5)]);
      expect(isRed(h1, 360, 220)).toBe(true);
      expect(isRed(h1, 1000, 600)).toBe(false);
      expect(isRed(v1, 360, 280)).toBe(true);
      expect(isRed(v1, 20, 20)).toBe(true);
      expect(isRed(v1, 360, 900)).toBe(false);

      // Moved on the vertical canvas only: down to 60,700 600×338.
      const moved = edit(doc, [{ op: 'updateLayerVertical', sceneId, layerId: camera.layerId, changes: { x: 60, y: 700, width: 600, height: 338 } }]);
      suite.fx.host.applyPlan('vertical', moved.version, sceneToRenderPlan(moved, resolve, outputs));
      const [h2, v2] = await waitFor(
        'the camera moved on the vertical canvas',
        async () => {
          const frames = await Promise.all([grabFrame(server.url(kH), 1280, 720, 5), grabFrame(server.url(kV), 720, 1280, 5)]);
          return isRed(frames[1], 360, 860) ? frames : undefined;
        },
        20_000,
        200,
      );
      expect(isRed(v2, 360, 860)).toBe(true);
      expect(isRed(v2, 360, 280)).toBe(false);
      // The horizontal program did not move.
      expect(isRed(h2, 360, 220)).toBe(true);
      expect(isRed(h2, 1000, 600)).toBe(false);
      // Both destinations stayed connected through the edit: a layout change is a pad property.
      expect(suite.fx.host.session('vertical')?.stats?.outputs.map((o) => [o.id, o.state, o.reconnects])).toEqual([
        ['wide', 'live', 0],
        ['tall', 'live', 0],
      ]);
    } finally {
      await suite.fx.host.stopSession('vertical');
    }
  });

  it('builds no vertical canvas while no destination takes it, attaches one live for the first vertical destination and detaches it after the last', async ({
    onTestFailed,
  }) => {
    const server = await suite.fx.rtmp();
    const [kH, kV] = [suite.key(), suite.key()];
    const base = `rtmp://127.0.0.1:${server.port}/live`;
    const wide: PlanOutput = { id: 'wide', url: base, key: kH };
    const { doc } = project();
    // A retry starts a session of the same id: only this attempt's reports and log lines count.
    const started = Date.now();
    const logsAtStart = suite.fx.logs.length;
    const wideReports = (since: number) =>
      suite.fx.reports.filter((r) => r.sessionId === 'wide-only' && r.at >= since && r.report.type === 'outputStatus' && r.report.outputId === 'wide');
    onTestFailed(({ task }) => {
      const states = wideReports(started).map((r) => `${r.at - started} ms ${(r.report as { state: string }).state}`);
      process.stdout.write(
        `failed on: ${task.result?.errors?.map((e) => e.message).join(' | ') ?? '?'}\n'wide' reports since the session started: ${states.join(', ')}\nthe session's output log lines:\n${suite.fx.logs
          .slice(logsAtStart)
          .filter((l) => /output|vertical|canvas|error/i.test(l))
          .join('\n')}\n`,
      );
    });
    suite.fx.host.startSession({ sessionId: 'wide-only', planVersion: doc.version, plan: sceneToRenderPlan(doc, resolve, [wide]) });
    try {
      await suite.fx.waitForOutput('wide-only', 'wide', 'live', 20_000, started);
      const pid = suite.fx.host.session('wide-only')?.pid;
      const logsBefore = suite.fx.logs.length;
      const added = Date.now();
      suite.fx.host.setOutputs('wide-only', [wide, { id: 'tall', url: base, key: kV, canvas: 'vertical' }]);
      await suite.fx.waitForOutput('wide-only', 'tall', 'live', 30_000, added);
      expect(suite.fx.logs.slice(logsBefore).some((l) => l.includes('vertical canvas attached'))).toBe(true);
      expect((await probeStream(server.url(kV))).video).toMatchObject({ width: 720, height: 1280 });
      // The same pipeline process, and the horizontal destination never left 'live'.
      expect(suite.fx.host.session('wide-only')?.pid).toBe(pid);
      const wideChanges = () => wideReports(added);
      expect(wideChanges()).toEqual([]);
      const removed = Date.now();
      suite.fx.host.setOutputs('wide-only', [wide]);
      await suite.fx.waitForOutput('wide-only', 'tall', 'stopped', 10_000, removed);
      await waitFor(
        'the vertical canvas to be detached',
        async () => (suite.fx.logs.slice(logsBefore).some((l) => l.includes('vertical canvas detached')) ? true : undefined),
        10_000,
        50,
      );
      expect((await probeStream(server.url(kH))).video).toMatchObject({ width: 1280, height: 720 });
      expect(suite.fx.host.session('wide-only')?.pid).toBe(pid);
      expect(wideChanges()).toEqual([]);
    } finally {
      await suite.fx.host.stopSession('wide-only');
    }
  });
});
