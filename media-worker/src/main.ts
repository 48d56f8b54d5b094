// The media worker process. It registers in the fleet and keeps a heartbeat; studio sessions
// (WebRTC peers, one GStreamer pipeline process per session, outputs) attach to this lifecycle.
import { runWorker } from '@onair/runtime';

await runWorker({
  kind: 'media',
  version: '0.1.0',
  defaultMetricsPort: 9101,
  load: () => ({ sessions: 0, outputs: 0, pages: 0, bitrateKbps: 0, fps: 0, droppedFrames: 0 }),
});
