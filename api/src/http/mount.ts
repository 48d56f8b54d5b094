import type { Request, Response, Router } from 'express';
import type { z } from 'zod';
import { findUnsafeText, OnAirError, unsafeTextMessage, type Endpoint } from '@onair/protocol';
import { projectAccessOf } from '../access/project-access.ts';
import { channelAccessOf } from '../access/channel-access.ts';
import { getCurrentUser, wasAuthenticated } from './auth-context.ts';

// The schemas are optional properties of Endpoint, so `E['body']` reads as `B | undefined`:
// strip the undefined before asking whether the endpoint has a schema.
type Part<S> = Exclude<S, undefined>;

export interface EndpointInput<E extends Endpoint> {
  params: Part<E['params']> extends z.ZodType ? z.output<Part<E['params']>> : Record<string, never>;
  query: Part<E['query']> extends z.ZodType ? z.output<Part<E['query']>> : Record<string, never>;
  body: Part<E['body']> extends z.ZodType ? z.output<Part<E['body']>> : undefined;
}

/** A reply with a status other than the endpoint's success status (still of the response's shape). */
export class Reply<T> {
  constructor(
    readonly status: number,
    readonly body: T,
  ) {}
}

/** A file download (an endpoint whose contract describes a binary response): sent as is, never as JSON. */
export class FileReply {
  constructor(
    readonly filename: string,
    readonly contentType: string,
    readonly body: Uint8Array,
    /** 'inline' for what a page shows (an image), 'attachment' for what the browser saves. */
    readonly disposition: 'inline' | 'attachment' = 'attachment',
  ) {}
}

export type Handler<E extends Endpoint> = (
  input: EndpointInput<E>,
  ctx: { req: Request; res: Response },
) => Promise<z.input<E['response']> | Reply<z.input<E['response']>> | FileReply>;

function parsePart(schema: z.ZodType | undefined, value: unknown, where: string): unknown {
  // Query and body met the text rule in bodyParsing; decoded path parameters exist only from here on.
  const unsafe = where === 'params' ? findUnsafeText(value) : null;
  if (unsafe) throw new OnAirError('VALIDATION_FAILED', unsafeTextMessage(where, unsafe), { where, path: unsafe.path, rule: 'unsafe-text' });
  if (!schema) return where === 'body' ? undefined : {};
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new OnAirError(
      'VALIDATION_FAILED',
      `The request ${where} is not valid: ${result.error.issues.map((i) => `${[where, ...i.path].join('.')}: ${i.message}`).join('; ')}`,
      { where, issues: result.error.issues.map((i) => ({ path: i.path.map(String), code: i.code, message: i.message })) },
    );
  }
  return result.data;
}

/**
 * Mounts a handler for an endpoint contract: params, query and body are validated with the
 * contract's schemas before the handler runs (validate at the edge, then trust), the caller's
 * project role must hold the endpoint's `projectPermission` (spec §6), a partner channel's caller
 * the endpoint's `channelCapability` (partner spec §6), and the reply is checked
 * against the response schema so the api never answers outside its own OpenAPI document.
 */
export function mount<E extends Endpoint>(router: Router, endpoint: E, handler: Handler<E>): void {
  // A project endpoint without a permission would be open to anyone signed in: refuse to start.
  if (endpoint.path.includes(':projectId') && !endpoint.projectPermission)
    throw new Error(`${endpoint.id}: a project endpoint must name its projectPermission (spec §6)`);
  if (endpoint.path.includes(':channelId') && !endpoint.channelCapability)
    throw new Error(`${endpoint.id}: a channel endpoint must name its channelCapability`);
  router[endpoint.method](endpoint.path, async (req, res) => {
    // Signed out is told so first, before anything of the request is judged (routers that resolve
    // the caller themselves, without authenticate(), do it in their handlers).
    if ((endpoint.access === 'user' || endpoint.access === 'admin') && wasAuthenticated(req)) getCurrentUser(req);
    const params = parsePart(endpoint.params, req.params, 'params');
    // The role check comes before the query and body are read: a caller without the permission
    // learns nothing of what the endpoint would have accepted.
    if (endpoint.projectPermission) {
      const { projectId } = params as { projectId?: unknown };
      if (typeof projectId !== 'string') throw new Error(`${endpoint.id}: a project endpoint needs a projectId parameter`);
      await projectAccessOf(res).require(getCurrentUser(req), projectId, endpoint.projectPermission);
    }
    if (endpoint.channelCapability) {
      const { channelId } = params as { channelId?: unknown };
      if (typeof channelId !== 'string') throw new Error(`${endpoint.id}: a channel endpoint needs a channelId parameter`);
      await channelAccessOf(res).require(getCurrentUser(req), channelId, endpoint.channelCapability);
    }
    const input = {
      params,
      query: parsePart(endpoint.query, req.query, 'query'),
      body: parsePart(endpoint.body, req.body, 'body'),
    } as EndpointInput<E>;
    const result = await handler(input, { req, res });
    if (result instanceof FileReply) {
      res.status(200).type(result.contentType).setHeader('cache-control', 'no-store');
      if (result.disposition === 'attachment') res.attachment(result.filename);
      else res.setHeader('content-disposition', 'inline');
      // The bytes are what they are: never sniffed into something else.
      res.setHeader('x-content-type-options', 'nosniff');
      res.end(Buffer.from(result.body));
      return;
    }
    const reply = result instanceof Reply ? result : new Reply(endpoint.successStatus ?? 200, result);
    const body = endpoint.response.parse(reply.body);
    if (reply.status === 204) {
      res.status(204).end();
      return;
    }
    res.status(reply.status).json(body);
  });
}
