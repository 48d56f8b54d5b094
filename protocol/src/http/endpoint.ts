import type { z } from 'zod';
import type { ChannelCapability } from '../channel-permissions.ts';
import type { ProjectPermission } from '../signaling/roles.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call an endpoint; the api enforces it before the handler runs. 'session' is any signed-in
 * session, an account pending deletion included (its status and reactivation); 'user' excludes it.
 */
export type EndpointAccess = 'public' | 'user' | 'session' | 'admin';

/**
 * One HTTP endpoint of the api as data: the api mounts a handler for it (validating params, query
 * and body with these schemas) and the OpenAPI document is generated from the same object, so the
 * contract, the validation and the documentation cannot drift apart.
 */
export interface Endpoint<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  Path extends string = string,
> {
  id: string;
  method: HttpMethod;
  /**
   * Express-style path (`/api/v1/projects/:projectId`). Kept as its literal type, so a client can
   * derive the `:name` parameters a call must fill in from the contract itself.
   */
  path: Path;
  summary: string;
  tag: string;
  access: EndpointAccess;
  /**
   * For an endpoint of one project (a `:projectId` path): the permission of spec §6 the caller's
   * project role must hold. The api checks it before the handler runs; every project endpoint must
   * name one (a protocol test holds every endpoint to that).
   */
  projectPermission?: ProjectPermission;
  /**
   * For an endpoint of one partner channel (a `:channelId` path): what the caller must be allowed
   * to do there (protocol's channelCapabilities table). The api checks it before the handler runs.
   */
  channelCapability?: ChannelCapability;
  params?: P;
  query?: Q;
  body?: B;
  /** The success response (status `successStatus`, 200 unless said otherwise). */
  response: R;
  successStatus?: number;
  /** Other statuses this endpoint answers with a body of the same shape as the success (e.g. 503 from /readyz). */
  alsoRespondsWith?: number[];
}

export function defineEndpoint<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType, Path extends string>(
  endpoint: Endpoint<P, Q, B, R, Path>,
): Endpoint<P, Q, B, R, Path> {
  return endpoint;
}
