import type { Entitlements, PlanId } from '@onair/protocol';
import type { UserType } from '@onair/db';

/** Who is calling, as every access rule reads it (http/auth-context.ts resolves it from the session). */
export interface CurrentUser {
  id: string;
  userType: UserType;
  plan: PlanId;
  entitlements: Entitlements;
  /** Set for a guest of a link (no account): `id` is the guest's id, the guest role holds in `projectId` only. */
  guest?: { projectId: string; displayName: string };
}
