/** Redis pub/sub channels of a project; the only place these strings are spelled. */
export const projectChannels = {
  /** Accepted scene patches (`AcceptedScenePatch` as JSON), in version order. */
  scene: (projectId: string) => `onair:projects:${projectId}:scene`,
} as const;
