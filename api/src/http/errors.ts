import type { ErrorRequestHandler, RequestHandler } from 'express';
import { OnAirError } from '@onair/protocol';
import type { Logger } from '@onair/runtime';

/** Maps what Express and its body parser throw onto the catalogue, so every error has one shape. */
function toOnAirError(err: unknown): OnAirError {
  if (err instanceof OnAirError) return err;
  const type = (err as { type?: string } | null)?.type;
  if (type === 'entity.too.large') return new OnAirError('PAYLOAD_TOO_LARGE');
  if (type === 'entity.parse.failed') return new OnAirError('MALFORMED_JSON');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return new OnAirError('UNSUPPORTED_MEDIA_TYPE');
  return new OnAirError('INTERNAL');
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const error = toOnAirError(err);
    if (error.fault === 'service') {
      logger.error({ err, method: req.method, path: req.path }, 'request failed');
    }
    res.status(error.status).json(error.toBody());
  };
}

export const notFoundHandler: RequestHandler = (_req, _res, next) => {
  next(new OnAirError('NOT_FOUND'));
};
