/** The HTTP layer's errors (spec §8); each says what went wrong in a way the UI can act on. */

export class UnauthorizedError extends Error {
  override readonly name = 'UnauthorizedError';
  readonly status = 401;
  constructor(readonly body: unknown) {
    super('User not authenticated');
  }
}

export class RequestFailedError extends Error {
  override readonly name = 'RequestFailedError';
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`Request failed with status ${status}`);
  }
}

export class RequestAbortedError extends Error {
  override readonly name = 'RequestAbortedError';
  readonly status = 408;
  constructor() {
    super('Request timed out');
  }
}

/** The server answered, but not with the shape `protocol` promises: a deployment mismatch. */
export class UnexpectedResponseError extends Error {
  override readonly name = 'UnexpectedResponseError';
  constructor(
    readonly path: string,
    readonly issues: string,
  ) {
    super(`Unexpected response from ${path}: ${issues}`);
  }
}

/** No answer at all: the api is down or the network is gone. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(cause: unknown) {
    super('The server could not be reached', { cause });
  }
}
