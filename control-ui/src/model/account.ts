/** Spec §4/§5: the delete confirmation enables only when the typed text equals 'delete', ignoring case. */
export function canConfirmDelete(typed: string): boolean {
  return typed.toLowerCase() === 'delete';
}

/** Spec §5: Save of the display name is disabled while pending, while empty and while unchanged. */
export function canSaveDisplayName(draft: string, current: string, pending: boolean): boolean {
  const trimmed = draft.trim();
  return !pending && trimmed !== '' && trimmed !== current;
}
