import type { ErrorCode } from '../errors.ts';

/**
 * Why a scene patch was refused: a stable code, the catalogue error the api answers with, and the
 * words shown to the creator (the spec's own where it has them).
 */
export const sceneRejections = {
  'stale-version': { error: 'CONFLICT', message: 'The scene was changed by someone else. Your change is being reapplied.' },
  'one-game-source-per-scene': { error: 'SCENE_RULE_VIOLATED', message: 'You can only add one game source to each scene' },
  'browser-source-too-small': { error: 'SCENE_RULE_VIOLATED', message: 'A browser source must be at least 852 wide and 480 high.' },
  'layer-too-small': { error: 'SCENE_RULE_VIOLATED', message: 'A visible source must be at least 1 pixel wide and high.' },
  'private-address': { error: 'SCENE_RULE_VIOLATED', message: 'Browser sources cannot load private or local addresses.' },
  'invalid-settings': { error: 'SCENE_RULE_VIOLATED', message: 'These source settings are not valid.' },
  'source-kind-mismatch': { error: 'SCENE_RULE_VIOLATED', message: 'These settings are for a different kind of source.' },
  'last-scene': { error: 'SCENE_RULE_VIOLATED', message: 'A project needs at least one scene.' },
  'invalid-order': { error: 'SCENE_RULE_VIOLATED', message: 'The new order must list every item exactly once.' },
  'duplicate-id': { error: 'SCENE_RULE_VIOLATED', message: 'Something with this id already exists.' },
  'source-in-scene': { error: 'SCENE_RULE_VIOLATED', message: 'This source is already in the scene.' },
  'scene-deleted': { error: 'SCENE_RULE_VIOLATED', message: 'This scene was deleted.' },
  'scene-not-found': { error: 'SCENE_RULE_VIOLATED', message: 'This scene does not exist.' },
  'scene-kind-reserved': {
    error: 'SCENE_RULE_VIOLATED',
    message: 'Scenes of scheduled broadcasts are made by OnAir when the broadcast starts. Schedule a video from the Media dialog instead.',
  },
  'not-a-countdown': { error: 'SCENE_RULE_VIOLATED', message: 'Only a countdown scene has a countdown.' },
  'layer-not-found': { error: 'SCENE_RULE_VIOLATED', message: 'This source is not in the scene.' },
  'source-not-found': { error: 'SCENE_RULE_VIOLATED', message: 'This source does not exist.' },
  'scene-limit-reached': { error: 'PLAN_LIMIT_REACHED', message: 'Your plan allows up to {limit} scenes. Upgrade to add more.' },
  'logo-required': { error: 'PLAN_LIMIT_REACHED', message: 'Your plan shows the OnAir logo on all streams. Upgrade to hide or replace it.' },
  'custom-logo-not-in-plan': { error: 'PLAN_LIMIT_REACHED', message: 'Upgrade to replace the logo with your own.' },
  'custom-background-not-in-plan': { error: 'PLAN_LIMIT_REACHED', message: 'Upgrade to upload your own backgrounds.' },
  'custom-screen-not-in-plan': { error: 'PLAN_LIMIT_REACHED', message: 'Upgrade to use your own Starting Soon, Be Right Back and Ending screens.' },
  'custom-video-not-in-plan': { error: 'PLAN_LIMIT_REACHED', message: 'Upgrade to play your own videos in scenes.' },
  'upload-not-found': { error: 'SCENE_RULE_VIOLATED', message: "This file is not among the project's uploads. Upload it again." },
  'upload-wrong-kind': {
    error: 'SCENE_RULE_VIOLATED',
    message: 'This file is not of the right kind for this source (an image for an image, a video for a video).',
  },
  'document-scene-limit': { error: 'SCENE_RULE_VIOLATED', message: 'A project can have up to {limit} scenes. Remove a scene before adding another.' },
  'document-source-limit': {
    error: 'SCENE_RULE_VIOLATED',
    message: 'A project can have up to {limit} sources. Remove sources you no longer use before adding more.',
  },
  'document-layer-limit': { error: 'SCENE_RULE_VIOLATED', message: 'A scene can show up to {limit} sources. Remove one from the scene before adding another.' },
  'resolution-not-in-plan': { error: 'PLAN_LIMIT_REACHED', message: 'Stream at {resolution}: upgrade your plan to use this resolution.' },
} as const satisfies Record<string, { error: ErrorCode; message: string }>;

export type SceneRejectionCode = keyof typeof sceneRejections;

export interface SceneRejection {
  code: SceneRejectionCode;
  /** The catalogue error the api answers with. */
  error: ErrorCode;
  message: string;
  /** Index of the op that was refused, when one op is to blame. */
  opIndex?: number;
  details?: Record<string, unknown>;
}

export function sceneRejection(
  code: SceneRejectionCode,
  options: { opIndex?: number; details?: Record<string, unknown>; vars?: Record<string, string | number> } = {},
): SceneRejection {
  const entry = sceneRejections[code];
  const message = entry.message.replace(/\{(\w+)\}/g, (whole, name: string) => String(options.vars?.[name] ?? whole));
  return {
    code,
    error: entry.error,
    message,
    ...(options.opIndex === undefined ? {} : { opIndex: options.opIndex }),
    ...(options.details === undefined ? {} : { details: options.details }),
  };
}

/** Thrown inside the pure apply step and turned into a result at its boundary. */
export class SceneRejectionError extends Error {
  override readonly name = 'SceneRejectionError';
  constructor(readonly rejection: SceneRejection) {
    super(rejection.message);
  }
}
