/** Redis pub/sub channels of a project; the only place these strings are spelled. */
export const projectChannels = {
  /** Accepted scene patches (`AcceptedScenePatch` as JSON), in version order. */
  scene: (projectId: string) => `onair:projects:${projectId}:scene`,
  /** Changes to the project itself (`project.renamed` server messages as JSON). */
  details: (projectId: string) => `onair:projects:${projectId}:details`,
} as const;

/**
 * Redis pub/sub channel of one user's project list (`projects.changed` server messages as JSON):
 * a project made or renamed in one tab or device shows in the user's other open Projects pages.
 */
export const userProjectsChannel = (userId: string) => `onair:users:${userId}:projects`;

/** Redis pub/sub channel of one user's account events (`subscription.updated` server messages as JSON). */
export const userAccountChannel = (userId: string) => `onair:users:${userId}:account`;
