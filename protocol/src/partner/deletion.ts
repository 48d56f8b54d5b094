import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';

/**
 * Partner spec §3 "Account deletion info", §4, §5: deleting deactivates at once; the data is
 * erased after the retention window (one setting of the api, 30 days unless the operator says
 * otherwise; the spec's own messages say 7 and 30); signing in before then may reactivate.
 */
export const accountDeletionStatusSchema = z.object({
  pendingDeletion: z.boolean(),
  /** When the account was deactivated (ISO), or null. */
  deactivatedAt: z.string().nullable(),
  /** When its data is erased for good (ISO), or null. */
  eraseAfter: z.string().nullable(),
  /** The installation's retention window, in days. */
  retentionDays: z.number().int().positive(),
  /** What the confirmation must repeat: the partner username, or the e-mail address before Get Started. */
  confirmWith: z.enum(['username', 'email']),
});
export type AccountDeletionStatus = z.infer<typeof accountDeletionStatusSchema>;

export const requestAccountDeletionBodySchema = z.object({ confirmation: z.string().trim().min(1, 'This field is required').max(320) });

export const getAccountDeletionEndpoint = defineEndpoint({
  id: 'getAccountDeletion',
  method: 'get',
  path: '/api/v1/partner/account/deletion',
  summary: 'Whether the account is pending deletion, when it will be erased, and the retention window. Answers a deactivated account too.',
  tag: 'partner',
  access: 'session',
  response: accountDeletionStatusSchema,
});

export const requestAccountDeletionEndpoint = defineEndpoint({
  id: 'requestAccountDeletion',
  method: 'post',
  path: '/api/v1/partner/account/deletion',
  summary: 'Delete the account: type the own username to confirm; it is deactivated at once (signed out everywhere) and erased after the retention window.',
  tag: 'partner',
  access: 'user',
  body: requestAccountDeletionBodySchema,
  response: accountDeletionStatusSchema,
});

export const reactivateAccountEndpoint = defineEndpoint({
  id: 'reactivateAccount',
  method: 'post',
  path: '/api/v1/partner/account/reactivation',
  summary: 'Reactivate an account pending deletion (after signing in again, before its erasure).',
  tag: 'partner',
  access: 'session',
  response: accountDeletionStatusSchema,
});
