// The render worker process. It registers in the fleet and keeps a heartbeat; web-page sources
// rendered in the system Chromium attach to this lifecycle.
import { runWorker } from '@onair/runtime';

await runWorker({
  kind: 'render',
  version: '0.1.0',
  defaultMetricsPort: 9102,
  load: () => ({ sessions: 0, outputs: 0, pages: 0, bitrateKbps: 0, fps: 0, droppedFrames: 0 }),
});
