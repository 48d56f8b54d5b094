/** The chat's Redis keys. */
export const chatKeys = {
  owner: (destinationId: string) => `onair:chat:owner:${destinationId}`,
  state: (destinationId: string) => `onair:chat:state:${destinationId}`,
  cursor: (destinationId: string) => `onair:chat:cursor:${destinationId}`,
  /** Each replica listens here for sends to the chats it owns. */
  replica: (replicaId: string) => `onair:chat:replica:${replicaId}`,
} as const;
