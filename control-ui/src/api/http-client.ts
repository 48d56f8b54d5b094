import { NetworkError, RequestAbortedError, RequestFailedError, UnauthorizedError, UnexpectedResponseError } from './http-errors.ts';

/** Spec §9: every request gives up after 30 s. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** An endpoint's path with its `:name` parameters filled in (each encoded). */
export const withId = (path: string, params: Record<string, string>): string =>
  path.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(params[name] ?? ''));

export interface HttpClientOptions {
  /** Empty in the browser: the api serves the UI, so paths are same-origin. */
  baseUrl?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Sent with every request (the guest page's client marks its requests as the guest's). */
  headers?: Record<string, string>;
}

/** What the client needs of a `protocol` zod schema; structural, so this module needs no zod import. */
export interface ResponseSchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false; error: { message: string } };
}

export interface GetJsonOptions<T> {
  response: ResponseSchema<T>;
  /** Non-2xx statuses whose body still follows `response` (e.g. `/readyz` answers 503 when not ready). */
  alsoAccept?: readonly number[];
}

export interface HttpClient {
  getJson<T>(path: string, options: GetJsonOptions<T>): Promise<T>;
  /** Sends `body` as JSON with the session cookie and checks the answer against `response`. */
  sendJson<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body: unknown, options: GetJsonOptions<T>): Promise<T>;
}

/**
 * The one way the UI talks HTTP to the api: a timeout on every request, the spec's error classes for
 * every failure, and every body checked against its `protocol` schema before the UI trusts it.
 */
export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const baseUrl = options.baseUrl ?? '';
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  // Read lazily so tests and the browser both get the fetch that exists when the call happens.
  const doFetch = (input: string, init: RequestInit) => (options.fetch ?? globalThis.fetch)(input, init);

  async function request<T>(method: string, path: string, body: unknown, { response, alsoAccept = [] }: GetJsonOptions<T>): Promise<T> {
    let res: Response;
    try {
      res = await doFetch(`${baseUrl}${path}`, {
        method,
        headers: { accept: 'application/json', ...options.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        credentials: 'same-origin',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      if (err instanceof DOMException && err.name === 'TimeoutError') throw new RequestAbortedError();
      throw new NetworkError(err);
    }
    const answer = await readBody(res);
    if (res.status === 401) throw new UnauthorizedError(answer);
    if (!res.ok && !alsoAccept.includes(res.status)) throw new RequestFailedError(res.status, answer);
    const parsed = response.safeParse(answer);
    if (!parsed.success) throw new UnexpectedResponseError(path, parsed.error.message);
    return parsed.data;
  }

  return {
    getJson: (path, options) => request('GET', path, undefined, options),
    sendJson: (method, path, body, options) => request(method, path, body, options),
  };
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export const httpClient = createHttpClient();
