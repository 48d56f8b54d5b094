// Read by the access rules (a guest's role lasts while their seat does) and by the guests feature.
/** A guest holding a seat: in the room, not removed, session not timed out. */
export function activeGuest(projectId: string, now: Date) {
  return { projectId, leftAt: null, removedAt: null, expiresAt: { gt: now } };
}
