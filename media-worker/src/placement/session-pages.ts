import { wantedRenders, type RenderPage, type SceneDocument } from '@onair/protocol';
import type { Logger, RenderRequests } from '@onair/runtime';
import { PIPELINE_PAYLOAD_TYPES, type MediaPorts } from '../webrtc/media-ports.ts';

/**
 * The web pages of this worker's sessions, rendered by render workers. On every scene change the
 * session says which pages it wants now (`wantedRenders`: spec §4, a hidden scene's page unloads
 * unless keep-loaded); new pages are requested with this worker's RTP ports as their target,
 * changed ones updated (a new url reloads), dropped ones stopped. Requests are leases that
 * RenderRequests renews, so the pages of a session that dies with its worker stop by themselves.
 */
export class SessionPages {
  private readonly requested = new Map<string, Map<string, RenderPage>>();

  constructor(
    private readonly renders: RenderRequests,
    private readonly ports: MediaPorts,
    /** Address the render workers send to; the pipeline's RTP inputs listen on loopback, so a co-located render worker. */
    private readonly rtpHost: string,
    private readonly logger: Logger,
  ) {}

  async sync(doc: SceneDocument, outputHeight: number): Promise<void> {
    const sessionId = doc.projectId;
    const current = this.requested.get(sessionId) ?? new Map<string, RenderPage>();
    this.requested.set(sessionId, current);
    const wanted = new Map(wantedRenders(doc, outputHeight).map((w) => [w.sourceId, w.page]));
    for (const [sourceId, page] of wanted) {
      const before = current.get(sourceId);
      const renderId = `${sessionId}.${sourceId}`;
      if (!before) {
        const ports = this.ports.source(sourceId);
        await this.renders.request({
          renderId,
          sessionId,
          sourceId,
          page,
          video: { host: this.rtpHost, port: ports.video.H264, payloadType: PIPELINE_PAYLOAD_TYPES.H264 },
          audio: { host: this.rtpHost, port: ports.audio.OPUS, payloadType: PIPELINE_PAYLOAD_TYPES.OPUS },
        });
        this.logger.info({ sessionId, sourceId, width: page.width, height: page.height }, 'web page requested');
      } else if (before.url !== page.url || before.width !== page.width || before.height !== page.height) {
        await this.renders.update(renderId, page);
      }
      current.set(sourceId, page);
    }
    for (const sourceId of [...current.keys()]) {
      if (wanted.has(sourceId)) continue;
      await this.renders.stop(`${sessionId}.${sourceId}`);
      current.delete(sourceId);
      this.logger.info({ sessionId, sourceId }, 'web page unloaded');
    }
  }

  async close(sessionId: string): Promise<void> {
    for (const sourceId of this.requested.get(sessionId)?.keys() ?? []) await this.renders.stop(`${sessionId}.${sourceId}`);
    this.requested.delete(sessionId);
  }
}
