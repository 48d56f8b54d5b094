import { z } from 'zod';

/**
 * The one-click layouts' names (issue 38), apart from their geometry (scene-layouts.ts) so the
 * scene document can name the layout a scene follows without importing what imports it.
 */
export const sceneLayoutIds = ['solo', 'side-by-side', 'grid', 'picture-in-picture', 'screen-strip', 'speaker'] as const;
export const sceneLayoutIdSchema = z.enum(sceneLayoutIds);
export type SceneLayoutId = z.infer<typeof sceneLayoutIdSchema>;

export const sceneLayoutInfo: Record<SceneLayoutId, { label: string; description: string }> = {
  solo: { label: 'Solo', description: 'One camera fills the frame.' },
  'side-by-side': { label: 'Side by side', description: 'Two cameras next to each other.' },
  grid: { label: 'Grid', description: 'Everyone in equal tiles (up to 9).' },
  'picture-in-picture': { label: 'Picture in picture', description: 'The screen or game fills the frame, a camera in the corner.' },
  'screen-strip': { label: 'Screen + cameras', description: 'The screen or game large, cameras in a strip beside it.' },
  speaker: { label: 'Speaker + guests', description: 'One speaker large, the guests in a row below.' },
};

/**
 * The layout a scene follows: while it is set, a patch that adds, removes, shows or hides one of
 * the scene's cameras, guests, screens or game re-flows them in this layout, in the same version
 * (followLayouts). `mainLayerId` is the tile the layout was built around (Solo's picture, the
 * speaker, the picture-in-picture's screen), kept in the main place as others come and go.
 */
export const followedLayoutSchema = z.strictObject({
  layout: sceneLayoutIdSchema,
  mainLayerId: z.uuid().nullable(),
});
export type FollowedLayout = z.infer<typeof followedLayoutSchema>;
