import { ALL_ENTITLEMENTS, applyScenePatchFollowingLayouts, type SceneDocument, type SceneOp, type SceneRejection } from '@onair/protocol';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The studio is served by the api: its own overlay pages carry the api's signature, which only the
 * server can check, so here a signed address of the studio's origin is let through and the server
 * has the last word. On a one-machine stack the same api answers as localhost and 127.0.0.1.
 */
function pageUrlTrusted(url: string): boolean {
  if (typeof location === 'undefined') return false;
  const page = new URL(url);
  if (!page.searchParams.has(OWN_PAGE_SIG)) return false;
  if (page.origin === location.origin) return true;
  return page.port === location.port && page.protocol === location.protocol && LOOPBACK_NAMES.has(page.hostname) && LOOPBACK_NAMES.has(location.hostname);
}
/** runtime's OWN_PAGE_SIG_PARAM (the UI does not import the runtime). */
const OWN_PAGE_SIG = 'onair-sig';

/** An edit made in this studio and not yet confirmed by the server. */
export interface PendingEdit {
  id: string;
  ops: SceneOp[];
  /** How many times the server answered 409 and the edit was replayed on a newer version. */
  attempts: number;
}

/**
 * What the studio shows: the server's document with this studio's unconfirmed edits replayed on
 * top, in order. An edit that no longer applies (someone deleted the scene it touched) is
 * reported so the caller can drop it and say why. Plan limits are the server's to enforce, so
 * edits are replayed with every entitlement; the scene rules (one game source per scene, browser
 * source size…) still apply here, which is how the studio refuses those before sending anything.
 * Scenes that follow their layout re-flow here as the server will re-flow them, so a guest added
 * to such a scene falls into place at once.
 */
export function optimisticDocument(
  confirmed: SceneDocument,
  pending: readonly PendingEdit[],
): { document: SceneDocument; failed: { edit: PendingEdit; rejection: SceneRejection }[] } {
  let document = confirmed;
  const failed: { edit: PendingEdit; rejection: SceneRejection }[] = [];
  for (const edit of pending) {
    const result = applyScenePatchFollowingLayouts(document, { baseVersion: document.version, ops: edit.ops }, ALL_ENTITLEMENTS, { pageUrlTrusted });
    if (result.ok) document = { ...result.document, version: confirmed.version };
    else failed.push({ edit, rejection: result.rejection });
  }
  return { document, failed };
}

/** Tries one more edit on top of what the studio shows; the rejection explains a refusal. */
export function tryEdit(shown: SceneDocument, ops: SceneOp[]): { ok: true; document: SceneDocument } | { ok: false; rejection: SceneRejection } {
  const result = applyScenePatchFollowingLayouts(shown, { baseVersion: shown.version, ops }, ALL_ENTITLEMENTS, { pageUrlTrusted });
  return result.ok ? { ok: true, document: { ...result.document, version: shown.version } } : { ok: false, rejection: result.rejection };
}
