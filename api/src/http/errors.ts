import type { ErrorRequestHandler, RequestHandler } from 'express';
import { OnAirError } from '@onair/protocol';
import type { Logger } from '@onair/runtime';

/**
 * Maps what Express, its router and its body parser throw onto the catalogue, so every error has
 * one shape: a client's bad input is a 4xx with words, never a 500 (and never logged as an error).
 */
export function toOnAirError(err: unknown): OnAirError {
  if (err instanceof OnAirError) return err;
  const e = err as { type?: string; status?: number; statusCode?: number } | null;
  const type = e?.type;
  if (type === 'entity.too.large') return new OnAirError('PAYLOAD_TOO_LARGE');
  if (type === 'entity.parse.failed') return new OnAirError('MALFORMED_JSON');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return new OnAirError('UNSUPPORTED_MEDIA_TYPE');
  // The router decodes path parameters with decodeURIComponent: `/projects/%E0` throws a URIError.
  if (err instanceof URIError) return new OnAirError('MALFORMED_URL');
  // http-errors raised by body parsing and static files (aborted request, bad range…) carry their status.
  const status = e?.status ?? e?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return new OnAirError(status === 404 ? 'NOT_FOUND' : 'BAD_REQUEST');
  return new OnAirError('INTERNAL');
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const error = toOnAirError(err);
    if (error.fault === 'service') {
      logger.error({ err, method: req.method, path: req.path }, 'request failed');
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(error.status).json(error.toBody());
  };
}

export const notFoundHandler: RequestHandler = (_req, _res, next) => {
  next(new OnAirError('NOT_FOUND'));
};
