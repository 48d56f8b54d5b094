import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { FleetOverview } from '@onair/protocol';
import { FleetView } from './FleetDashboard.tsx';

const now = new Date().toISOString();
const worker = (id: string, kind: 'media' | 'render', state: 'running' | 'draining', cpuCores: number) => ({
  id,
  kind,
  host: `${id}-host`,
  pid: 1,
  version: '0.1.0',
  node: '24.21.0',
  startedAt: now,
  sentAt: now,
  state,
  cores: 4,
  cpuCores,
  rssBytes: 100 * 1024 * 1024,
  sessions: kind === 'media' ? 2 : 0,
  outputs: 1,
  pages: kind === 'render' ? 3 : 0,
  bitrateKbps: 3000,
  fps: 30,
  droppedFrames: 7,
  sessionIds: [],
});
const overview: FleetOverview = {
  at: now,
  workers: [worker('media-a', 'media', 'running', 3.8), worker('media-b', 'media', 'draining', 1), worker('render-a', 'render', 'running', 0.5)],
  queue: { waiting: 3, delayed: 1, active: 4, oldestWaitingMs: 65_000 },
  failedOutputs: [{ sessionId: '4b7a3c1e-1f7e-4c7a-9f7e-0a1b2c3d4e5f', outputId: 'twitch-main', state: 'failed', errorCode: 'DESTINATION_REFUSED', at: now }],
  failovers: [{ projectId: '5c8b4d2f-2a8f-4d8b-8a8f-1b2c3d4e5f60', fromWorkerId: 'media-x', toWorkerId: 'media-a', at: now, gapMs: 4200 }],
  leader: 'api-7f9',
};

describe('FleetView', () => {
  it('shows every worker with its load, the queue, failed outputs and failovers', () => {
    const html = renderToString(<FleetView status={{ kind: 'ready', overview, fetchedAt: Date.now() }} history={[]} />);
    for (const id of ['media-a', 'media-b', 'render-a']) expect(html).toContain(`data-worker-id="${id}"`);
    expect(html).toMatch(/data-level="full"/); // 3.8 of 4 cores
    expect(html).toContain('95 %<!-- --> of <!-- -->4');
    expect(html).toMatch(/data-state="draining"/);
    expect(html).toMatch(/Waiting.*4.*longest 1 min 5 s/s);
    expect(html).toContain('twitch-main');
    expect(html).toContain('DESTINATION_REFUSED');
    expect(html).toMatch(/from <!-- -->media-x<!-- --> to <!-- -->media-a/);
    expect(html).toContain('api-7f9');
  });

  it("puts each session's charge in the admission model beside its measured CPU, and says how far off the model is", () => {
    const withLoads: FleetOverview = {
      ...overview,
      workers: [
        {
          ...worker('media-a', 'media', 'running', 1.2),
          sessionLoads: [
            { sessionId: 'aaaaaaaa-1', estimatedCores: 0.75, measuredCores: 0.36 },
            { sessionId: 'bbbbbbbb-2', estimatedCores: 0.75 },
          ],
        },
        { ...worker('media-b', 'media', 'running', 0.9), sessionLoads: [{ sessionId: 'cccccccc-3', estimatedCores: 1.1, measuredCores: 0.7 }] },
      ],
    };
    const html = renderToString(<FleetView status={{ kind: 'ready', overview: withLoads, fetchedAt: Date.now() }} history={[]} />);
    expect(html).toContain('data-session-id="aaaaaaaa-1"');
    expect(html).toMatch(/0\.75 cores.*0\.36 cores.*0\.48×/s);
    // Not measured yet: said so, no ratio.
    expect(html).toMatch(/data-session-id="bbbbbbbb-2".*measuring…/s);
    expect(html).toContain('Sessions use 0.64× what the admission model charges (median over 2 sessions): workers take fewer sessions than they could.');
    const none = renderToString(<FleetView status={{ kind: 'ready', overview, fetchedAt: Date.now() }} history={[]} />);
    expect(none).toContain('No session runs on a media worker.');
  });

  it('says plainly when the caller is not an administrator, and shows no data', () => {
    const html = renderToString(<FleetView status={{ kind: 'forbidden' }} history={[]} />);
    expect(html).toContain('Only administrators can see the fleet.');
    expect(html).not.toContain('data-worker-id');
  });

  it('draws the load chart from the history', () => {
    const at = new Date().toISOString();
    const history = [
      { at, mediaWorkers: 2, drainingWorkers: 1, renderWorkers: 1, sessions: 4, queued: 4, cpuCores: 4, cores: 8, outputs: 2, bitrateKbps: 6000 },
    ];
    const html = renderToString(<FleetView status={{ kind: 'ready', overview, fetchedAt: Date.parse(at) }} history={history} />);
    expect(html).toMatch(/<path[^>]*data-series="cpu"/);
    expect(html).toContain('Now: 50 % of media cores busy, 4 sessions, 4 waiting');
  });
});
