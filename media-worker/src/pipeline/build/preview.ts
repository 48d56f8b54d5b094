import type { PlanPreview } from '@onair/protocol';
import { linkChain, linkPads, makeElement, requestPad, staticPad } from '../../gst/elements.ts';
import type { GstElement } from '../../gst/gst.ts';
import type { GstPipeline } from '../../gst/pipeline.ts';

/**
 * The studio's live preview: its own small VP8 encode (the output's H.264 has a fixed 2 s GOP and
 * profile a browser may not take), tuned for speed, as RTP to the WebRTC endpoint. A leaky queue
 * keeps a slow preview from ever holding back the program.
 */
export function buildPreview(gst: GstPipeline, tee: GstElement, preview: PlanPreview, fps: number): void {
  const branch = [
    makeElement('queue', 'preview-queue', { leaky: 'downstream', 'max-size-buffers': 2, 'max-size-bytes': 0, 'max-size-time': 0 }),
    makeElement('videoscale', 'preview-scale'),
    makeElement('videoconvert', 'preview-convert'),
    // In BT.601, VP8's colour space (it carries no tag) and the one browsers decode it in: left in
    // the canvas's BT.709, the studio preview showed other colours than the output.
    makeElement('capsfilter', 'preview-caps', {
      caps: `video/x-raw,format=I420,width=${preview.width},height=${preview.height},colorimetry=bt601`,
    }),
    makeElement('vp8enc', 'preview-encoder', {
      deadline: 1,
      'cpu-used': 8,
      'end-usage': 'cbr',
      'target-bitrate': preview.bitrateKbps * 1000,
      // A peer that joins, or asks after a loss, waits at most a second for a picture.
      'keyframe-max-dist': fps,
      'error-resilient': 'default',
      'lag-in-frames': 0,
      threads: 1,
    }),
    makeElement('rtpvp8pay', 'preview-pay', { pt: preview.payloadType, mtu: 1200, 'picture-id-mode': '15-bit' }),
    makeElement('udpsink', 'preview-sink', { host: '127.0.0.1', port: preview.port, sync: false, async: false }),
  ];
  for (const element of branch) gst.add(element);
  linkChain(branch);
  linkPads(requestPad(tee, 'src_%u'), staticPad(branch[0]!, 'sink'));
}
