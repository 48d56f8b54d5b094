import type { PlanPlacement, RenderPlan } from '@onair/protocol';

/** Compositor sink pad properties of one picture (node-gtk names them in camelCase). */
export interface PadProperties {
  xpos: number;
  ypos: number;
  width: number;
  height: number;
  zorder: number;
  alpha: number;
}

/** Where and how one input is drawn: its pad's properties, and what its branch does before the pad (inputs/canvas-branch.ts). */
export interface VideoPadLayout extends PadProperties {
  /** The radius of its rounded corners in compositor pixels; 0 is square. */
  cornerRadius: number;
  /** Pixels of its frames cut from each edge (the layer's crop). */
  crop: PlanPlacement['crop'];
  /** Stretched to the box, or cut further to the box's aspect, centred. */
  fit: PlanPlacement['fit'];
}

const NO_CROP: PlanPlacement['crop'] = { top: 0, right: 0, bottom: 0, left: 0 };

export interface AudioPadTarget {
  volume: number;
  muted: boolean;
  /** Whether the input is shown in the active scene: its sound fades in, or out when not. */
  audible: boolean;
}

/** The background is the compositor's pad at zorder 0; every input sits above it. */
export const BACKGROUND_ZORDER = 0;

/**
 * Where every input is drawn for the active scene. An input that the active scene does not place,
 * or places hidden, stays attached with alpha 0: switching scenes only changes these numbers.
 */
export function videoLayout(plan: RenderPlan): Map<string, VideoPadLayout> {
  const scene = plan.scenes.find((s) => s.id === plan.activeSceneId);
  const layout = new Map<string, VideoPadLayout>();
  for (const input of plan.inputs) {
    const placement = scene?.placements.find((p) => p.inputId === input.id);
    if (!placement) {
      layout.set(input.id, {
        xpos: 0,
        ypos: 0,
        width: plan.profile.width,
        height: plan.profile.height,
        zorder: BACKGROUND_ZORDER + 1,
        alpha: 0,
        cornerRadius: 0,
        crop: NO_CROP,
        fit: 'fill',
      });
      continue;
    }
    layout.set(input.id, {
      xpos: placement.x,
      ypos: placement.y,
      width: placement.width,
      height: placement.height,
      zorder: placement.zorder + BACKGROUND_ZORDER + 1,
      alpha: placement.visible ? placement.alpha : 0,
      cornerRadius: placement.cornerRadius,
      crop: placement.crop,
      fit: placement.fit,
    });
  }
  return layout;
}

export function audioTargets(plan: RenderPlan): Map<string, AudioPadTarget> {
  const scene = plan.scenes.find((s) => s.id === plan.activeSceneId);
  const targets = new Map<string, AudioPadTarget>();
  for (const input of plan.inputs) {
    const settings = plan.audio.find((a) => a.inputId === input.id);
    const placement = scene?.placements.find((p) => p.inputId === input.id);
    targets.set(input.id, {
      volume: settings?.volume ?? 1,
      muted: settings?.muted ?? false,
      audible: placement?.visible ?? false,
    });
  }
  return targets;
}

/**
 * Whether going from one plan to the next needs a new pipeline process: only a different output
 * profile (size, frame rate, bitrates) does. Inputs, the vertical canvas, placements, scenes, audio
 * and outputs all change in the running pipeline (issue 35).
 */
export function planNeedsNewProcess(previous: RenderPlan, next: RenderPlan): boolean {
  return JSON.stringify(previous.profile) !== JSON.stringify(next.profile);
}

/** Ease-in-out (quadratic) of a 0..1 progress. */
export function easeInOut(t: number): number {
  const x = Math.min(1, Math.max(0, t));
  return x < 0.5 ? 2 * x * x : 1 - (-2 * x + 2) ** 2 / 2;
}
