import type { OutputProfile, RenderPlan } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import type { GstElement } from '../gst/gst.ts';
import type { GstPipeline } from '../gst/pipeline.ts';
import { moved, type AttachedInput } from './inputs/input-set.ts';
import { PictureLink } from './inputs/picture-link.ts';
import { imageBin } from './sources/image.ts';

/** Above every layer (plan zorders are at most 10 000). */
const SLATE_ZORDER = 20_000;

/**
 * The holding slate (plan.slate): one more compositor pad above every layer, transparent until
 * every live input of the active scene that has sent before stops sending for the plan's
 * `afterMs`; then it covers the program (the outputs go on sending it, so platforms keep the
 * broadcast), and the first packets of any of them take it away. Inputs that never sent (a camera
 * not turned on yet) do not count as dropped. Only pad alpha changes: outputs stay linked.
 */
export class HoldingSlate {
  private link: PictureLink | undefined;
  /** Since when every live input of the active scene has sent nothing, and since when the slate shows. */
  private droppedSince: number | undefined;
  private showingSince: number | undefined;

  constructor(private readonly logger: Logger) {}

  /** When the slate started to show, if it shows. */
  get since(): number | undefined {
    return this.showingSince;
  }

  /** A missing or broken picture leaves the program without a slate, never without a picture. */
  attach(gst: GstPipeline, compositor: GstElement, path: string, profile: OutputProfile, size: { width: number; height: number }): void {
    try {
      const link = new PictureLink(gst, imageBin('slate', path, profile, 'slate'), 'slate', compositor);
      this.link = link;
      this.layout(size);
      link.start();
    } catch (err) {
      this.link = undefined;
      this.logger.warn({ detail: err instanceof Error ? err.message : String(err) }, 'holding slate left out');
    }
  }

  /** Over the whole program as composited now. */
  layout(size: { width: number; height: number }): void {
    if (this.link)
      Object.assign(this.link.pad, {
        xpos: 0,
        ypos: 0,
        width: size.width,
        height: size.height,
        zorder: SLATE_ZORDER,
        alpha: this.showingSince === undefined ? 0 : 1,
      });
  }

  /** The slate's picture failed: the program goes on without a slate. */
  failed(): void {
    if (this.link) Object.assign(this.link.pad, { alpha: 0 });
    this.link = undefined;
  }

  check(now: number, plan: RenderPlan, inputs: Iterable<AttachedInput>, size: { width: number; height: number }): void {
    if (!this.link || !plan.slate) return;
    const scene = plan.scenes.find((s) => s.id === plan.activeSceneId);
    const shown = new Set(scene?.placements.filter((p) => p.visible && p.alpha > 0).map((p) => p.inputId));
    const live = [...inputs].filter((i) => shown.has(i.id) && i.feeds.some((f) => f.jitter));
    // Silent since the last look (not the placeholder's longer wait): the slate's own afterMs is the grace.
    const dropped = live.some((i) => i.everFlowed) && !live.some((i) => i.feeds.some(moved));
    if (!dropped) {
      this.droppedSince = undefined;
      if (this.showingSince !== undefined) {
        this.logger.info({ seconds: Math.round((now - this.showingSince) / 1000) }, 'a live source is back: holding slate off');
        this.showingSince = undefined;
        this.layout(size);
      }
      return;
    }
    this.droppedSince ??= now;
    if (this.showingSince === undefined && now - this.droppedSince >= plan.slate.afterMs) {
      this.showingSince = this.droppedSince;
      this.logger.info('every live source dropped: holding slate on');
      this.layout(size);
    }
  }
}
