import { maximumScenes, PAID_MAXIMUM_SCENES, plannedScenes, type Entitlements, type SceneDocument, type SceneTemplateSummary } from '@onair/protocol';

/** Whether a template's scenes fit the plan, and if not, what it would take (issue 52: limits before they bite). */
export interface TemplateFit {
  fits: boolean;
  /** In a creator's words, when it does not fit: how many scenes it needs, how many the plan has left, and the way out. */
  reason: string | null;
}

const scenes = (n: number) => `${n} ${n === 1 ? 'scene' : 'scenes'}`;

/**
 * Read from the plan's entitlements (the same `maximum-scenes` the api applies), not learnt from a
 * refused request: a template adds all its scenes after the creator's, so it fits only when they all
 * fit under the limit.
 */
export function templateFit(template: Pick<SceneTemplateSummary, 'sceneNames'>, doc: SceneDocument, entitlements: Entitlements): TemplateFit {
  const limit = maximumScenes(entitlements);
  const used = plannedScenes(doc).length;
  const needed = template.sceneNames.length;
  if (used + needed <= limit) return { fits: true, reason: null };
  const left = Math.max(0, limit - used);
  const wayOut =
    limit < PAID_MAXIMUM_SCENES
      ? `Upgrade to Premium for up to ${PAID_MAXIMUM_SCENES} scenes, or delete ${scenes(used + needed - limit)} first.`
      : `Delete ${scenes(used + needed - limit)} first.`;
  return {
    fits: false,
    reason: `Adds ${scenes(needed)}; your plan has room for ${left === 0 ? 'no more' : left} of its ${scenes(limit)}. ${wayOut}`,
  };
}
