import type { z } from 'zod';
import type { Endpoint } from '@onair/protocol';
import { httpClient, withId, type HttpClient, type ResponseSchema } from './http-client.ts';

// The one typed way to call the api: the contract in @onair/protocol decides the method, the path,
// what params, query and body the call must carry, and what the answer is. A body that does not
// follow its contract does not compile, so a drift between the UI and the api shows up in `tsc`,
// not as a 400 at run time.

/** Any contract, whatever its schemas; `call` reads the precise ones from the endpoint it is given. */
type AnyEndpoint = Endpoint<z.ZodType, z.ZodType, z.ZodType, z.ZodType, string>;

/**
 * The schema a contract names for one part, or never. An endpoint without a `body` (say) still has
 * `body?: B` in its type, with B fallen back to the bare `z.ZodType` of the constraint; a schema
 * the contract declares is always narrower than that.
 */
type Declared<S> = [Exclude<S, undefined>] extends [infer T] ? (T extends z.ZodType ? (z.ZodType extends T ? never : T) : never) : never;

/** The `:name` parts of an Express path: `'/a/:x/b/:y'` → `'x' | 'y'`. */
export type PathParamNames<Path extends string> = Path extends `${string}:${infer Rest}`
  ? Rest extends `${infer Name}/${infer Tail}`
    ? Name | PathParamNames<`/${Tail}`>
    : Rest
  : never;

/** From the params schema when the contract has one, else from the path's `:name` parts. */
type ParamsOf<E extends AnyEndpoint> = [Declared<E['params']>] extends [never]
  ? string extends E['path']
    ? Record<string, string> // A path built at run time: its parts cannot be read from its type.
    : [PathParamNames<E['path']>] extends [never]
      ? never
      : { [K in PathParamNames<E['path']>]: string }
  : z.input<Declared<E['params']>>;

type QueryOf<E extends AnyEndpoint> = [Declared<E['query']>] extends [never] ? never : z.input<Declared<E['query']>>;
type BodyOf<E extends AnyEndpoint> = [Declared<E['body']>] extends [never] ? never : z.input<Declared<E['body']>>;

/** A part the contract lacks cannot be given; one it has is required unless its schema admits nothing at all. */
type Part<Name extends string, T> = [T] extends [never] ? { [K in Name]?: never } : undefined extends T ? { [K in Name]?: T } : { [K in Name]: T };
/** A query whose every field is optional may be left out. */
type QueryPart<T> = [T] extends [never] ? { query?: never } : Record<never, never> extends T ? { query?: T } : { query: T };

export type CallInput<E extends AnyEndpoint> = Part<'params', ParamsOf<E>> & QueryPart<QueryOf<E>> & Part<'body', BodyOf<E>>;

/** The body an endpoint's contract takes (its schema's input), for an action that passes one through. */
export type CallBody<E extends AnyEndpoint> = BodyOf<E>;

/** The query an endpoint's contract takes (its schema's input). */
export type CallQuery<E extends AnyEndpoint> = QueryOf<E>;

/** What the endpoint answers, as its response schema parses it. */
export type CallResult<E extends AnyEndpoint> = z.output<E['response']>;

/** The input may be left out when the contract asks for nothing; the client is the app's unless a test gives its own. */
type CallArgs<E extends AnyEndpoint> =
  Record<never, never> extends CallInput<E> ? [input?: CallInput<E>, client?: HttpClient] : [input: CallInput<E>, client?: HttpClient];

type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

/** The query string (with its `?`) of a query object; undefined and null fields are left out. */
export function queryString(query: Readonly<Record<string, QueryValue>> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const one of Array.isArray(value) ? value : [value]) search.append(name, String(one));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The URL path of a call: the contract's path with its parameters filled in, and the query after it. */
export function pathOf(endpoint: Pick<AnyEndpoint, 'path'>, input: { params?: unknown; query?: unknown } = {}): string {
  const params = (input.params ?? {}) as Record<string, string>;
  return `${withId(endpoint.path, params)}${queryString(input.query as Record<string, QueryValue> | undefined)}`;
}

/**
 * The same-origin URL of an endpoint that is not called as JSON (a download link, a file upload):
 * its params and query are typed from the contract as for `call`.
 */
export function urlOf<E extends AnyEndpoint>(endpoint: E, input: Omit<CallInput<E>, 'body'>): string {
  return pathOf(endpoint, input);
}

/**
 * A 204 has no body, which the client reads as undefined; contracts write that "nothing" as
 * `z.null()` or as `z.undefined()`, so an empty answer is offered as whichever the schema takes.
 */
function noContent(schema: z.ZodType): ResponseSchema<unknown> {
  return { safeParse: (data) => schema.safeParse(data === undefined && !schema.safeParse(undefined).success ? null : data) };
}

/**
 * Calls `endpoint` with the method its contract names and checks the answer against its response
 * schema; the client's timeout and error classes apply as for every request.
 */
export function call<E extends AnyEndpoint>(endpoint: E, ...args: CallArgs<E>): Promise<CallResult<E>> {
  // The types above have checked the input against the contract; from here on it is plain data.
  const input: { params?: unknown; query?: unknown; body?: unknown } = args[0] ?? {};
  const client = args[1] ?? httpClient;
  const url = pathOf(endpoint, input);
  const options = {
    response: endpoint.successStatus === 204 ? noContent(endpoint.response) : endpoint.response,
    ...(endpoint.alsoRespondsWith ? { alsoAccept: endpoint.alsoRespondsWith } : {}),
  };
  if (endpoint.method === 'get') return client.getJson(url, options) as Promise<CallResult<E>>;
  const method = endpoint.method === 'post' ? 'POST' : endpoint.method === 'put' ? 'PUT' : endpoint.method === 'patch' ? 'PATCH' : 'DELETE';
  return client.sendJson(method, url, input.body, options) as Promise<CallResult<E>>;
}
