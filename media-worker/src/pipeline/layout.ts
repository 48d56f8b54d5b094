import type { RenderPlan } from '@onair/protocol';

/** Compositor sink pad properties of one input (node-gtk names them in camelCase). */
export interface VideoPadLayout {
  xpos: number;
  ypos: number;
  width: number;
  height: number;
  zorder: number;
  alpha: number;
  /** Not a pad property: the radius of a rounded picture's corners (inputs/corner-mask.ts); 0 is square. */
  cornerRadius: number;
}

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
      cornerRadius: input.rounded ? placement.cornerRadius : 0,
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
